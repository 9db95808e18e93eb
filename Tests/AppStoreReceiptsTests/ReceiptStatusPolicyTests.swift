import AppStoreReceipts
import Testing

@Suite struct ReceiptStatusPolicyTests {
    @Test(arguments: [
        (0, false, ReceiptStatusPolicy.Action.accept),
        (21006, false, .accept),
        (21007, false, .switchToSandbox),
        (21008, false, .switchToProduction),
        (21002, false, .retryOnce),
        (21003, false, .reject),
        (21010, false, .reject),
        (21000, false, .reject),
        (21004, false, .misconfigured),
        (21005, false, .retryWithBackoff),
        (21009, false, .retryWithBackoff),
        (21100, true, .retryWithBackoff),
        (21199, true, .retryWithBackoff),
        (21100, false, .reject),
        (21150, false, .reject),
        (21200, true, .reject),
        (42, false, .reject),
    ])
    func everyStatusHasItsAction(status: Int, isRetryable: Bool, expected: ReceiptStatusPolicy.Action) {
        #expect(ReceiptStatusPolicy.action(status: status, isRetryable: isRetryable) == expected)
    }
}
