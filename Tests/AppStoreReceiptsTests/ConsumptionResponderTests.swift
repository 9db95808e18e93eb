import GatewayHandlerAPI
import Testing

@testable import AppStoreReceipts

/// When a consumption answer the store could not take is tried again.
@Suite struct ConsumptionResponderTests {
    struct Trouble: Error {}

    @Test func retriesBackOffFromAMinuteToAnHourOrWhatTheStoreAsks() {
        #expect(ConsumptionResponder.pause(after: 1, asked: Trouble()) == 60)
        #expect(ConsumptionResponder.pause(after: 3, asked: Trouble()) == 240)
        #expect(ConsumptionResponder.pause(after: 12, asked: Trouble()) == 3_600)
        let throttled = GatewayError.rateLimited(retryAfterSeconds: 900)
        #expect(ConsumptionResponder.pause(after: 1, asked: throttled) == 900)
    }
}
