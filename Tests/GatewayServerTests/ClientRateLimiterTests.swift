import Testing

@testable import GatewayServer

@Suite struct ClientRateLimiterTests {
    @Test func aBurstThenTheRateAndEachClientItsOwnBucket() {
        let limiter = ClientRateLimiter(perSecond: 2, burst: 3)
        let start = ContinuousClock.now
        #expect((0..<3).map { _ in limiter.admit("a", now: start) } == [nil, nil, nil])
        #expect(limiter.admit("a", now: start) == 1)
        #expect(limiter.admit("b", now: start) == nil)
        #expect(limiter.admit("a", now: start + .milliseconds(500)) == nil)
        #expect(limiter.admit("a", now: start + .milliseconds(500)) == 1)
        #expect(limiter.admit("a", now: start + .seconds(10)) == nil)
    }

    @Test func pastTheClientBoundTheLimitedAreForgottenLast() {
        let limiter = ClientRateLimiter(perSecond: 1, burst: 3, maxClients: 10)
        let start = ContinuousClock.now
        #expect((0..<3).map { _ in limiter.admit("busy", now: start) } == [nil, nil, nil])
        for client in 0..<100 { #expect(limiter.admit("passer-\(client)", now: start) == nil) }
        #expect(limiter.admit("busy", now: start + .milliseconds(100)) == 1)
    }

    @Test func aCleanUpAlwaysLeavesRoomForHalfTheBound() {
        let limiter = ClientRateLimiter(perSecond: 1, burst: 1, maxClients: 10)
        let start = ContinuousClock.now
        for client in 0..<4 { #expect(limiter.admit("early-\(client)", now: start) == nil) }
        // Ten seconds on the early buckets have refilled; the late ones are empty when the bound is passed.
        for client in 0..<7 { #expect(limiter.admit("late-\(client)", now: start + .seconds(10)) == nil) }
        #expect(limiter.trackedClients == 5)
    }
}
