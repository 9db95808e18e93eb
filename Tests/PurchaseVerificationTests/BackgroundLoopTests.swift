import GatewayHandlerAPI
import PurchaseVerification
import Testing

/// When work beside requests that a store could not take (a consumption answer, an acknowledgement) is tried
/// again.
@Suite struct BackgroundLoopTests {
    struct Trouble: Error {}

    @Test func retriesBackOffFromAMinuteToAnHourOrWhatTheStoreAsks() {
        #expect(BackgroundLoop.pause(after: 1, asked: Trouble()) == 60)
        #expect(BackgroundLoop.pause(after: 3, asked: Trouble()) == 240)
        #expect(BackgroundLoop.pause(after: 12, asked: Trouble()) == 3_600)
        let throttled = GatewayError.rateLimited(retryAfterSeconds: 900)
        #expect(BackgroundLoop.pause(after: 1, asked: throttled) == 900)
    }
}
