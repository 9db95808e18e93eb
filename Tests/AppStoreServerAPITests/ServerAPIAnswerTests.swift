import Foundation
import Testing

@testable import AppStoreServerAPI

@Suite struct ServerAPIAnswerTests {
    /// Apple's `Retry-After` is a UNIX time in milliseconds; a pause comes out as asked, never a millisecond
    /// longer because the clock was read mid-millisecond.
    @Test func retryAfterIsApplesMillisecondsOrPlainSeconds() {
        let now = Date(timeIntervalSince1970: 1_795_000_000.0006)
        #expect(ServerAPIAnswer.retryAfter("1795000060001", now: now) == .seconds(60))
        #expect(ServerAPIAnswer.retryAfter("1794999990000", now: now) == .zero)
        #expect(ServerAPIAnswer.retryAfter("120", now: now) == .seconds(120))
        #expect(ServerAPIAnswer.retryAfter("999999", now: now) == .seconds(86_400))
        for unreadable in [nil, "", "soon", "-5", "1.5"] {
            #expect(ServerAPIAnswer.retryAfter(unreadable, now: now) == nil)
        }
    }
}
