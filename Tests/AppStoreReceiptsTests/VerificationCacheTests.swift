import Foundation
import PurchaseVerification
import Synchronization
import Testing

@testable import AppStoreReceipts

@Suite struct VerificationCacheTests {
    let deadline = ContinuousClock.now + .seconds(10)
    static let verified = VerifyReceiptBackend.Verdict.rejected(status: 21003)

    static func cache(ttl: Duration, maxBytes: Int) -> VerifyReceiptBackend.Cache {
        VerifyReceiptBackend.Cache(ttl: ttl, maxBytes: maxBytes, unfinished: .unavailable(reason: "unfinished"))
    }

    func digest(_ text: String) -> ReceiptDigest { ReceiptDigest(receiptData: text, excludeOldTransactions: false) }

    @Test func concurrentCallersShareOneComputation() {
        let cache = Self.cache(ttl: .seconds(60), maxBytes: 1 << 20)
        let computations = Mutex(0)
        let fromCache = Mutex(0)
        let arrived = Mutex(0)
        // The computation lasts until every caller has asked (as Apple's answer would), so each of the others
        // either waits for it or, arriving after, finds its verdict.
        let everyoneAsked = NSCondition()
        let callers = DispatchGroup()
        for _ in 0..<16 {
            callers.enter()
            Thread {
                everyoneAsked.withLock {
                    arrived.withLock { $0 += 1 }
                    everyoneAsked.broadcast()
                }
                let result = try? cache.verdict(for: digest("same"), deadline: deadline) { () throws(UpstreamFailure) in
                    computations.withLock { $0 += 1 }
                    everyoneAsked.withLock {
                        while arrived.withLock({ $0 }) < 16 { _ = everyoneAsked.wait(until: Date() + 10) }
                    }
                    return (Self.verified, cost: 100)
                }
                if result?.cached == true { fromCache.withLock { $0 += 1 } }
                callers.leave()
            }.start()
        }
        #expect(callers.wait(timeout: .now() + 30) == .success)
        #expect(computations.withLock { $0 } == 1)
        #expect(fromCache.withLock { $0 } == 15)
    }

    /// The store said a verdict changed (a push): a kept verdict is dropped, and one being computed while it was
    /// said is not kept either (it may have read the store before the change).
    @Test func aForgottenKeyIsComputedAgainEvenWhenForgottenMidComputation() throws {
        let cache = Self.cache(ttl: .seconds(60), maxBytes: 1 << 20)
        let calls = Mutex(0)
        func look(during: () -> Void = {}) throws -> Bool {
            try cache.verdict(for: digest("r"), deadline: deadline) { () throws(UpstreamFailure) in
                calls.withLock { $0 += 1 }
                during()
                return (Self.verified, cost: 100)
            }.cached
        }
        #expect(try look() == false)
        #expect(try look() == true)
        cache.forget(digest("r"))
        #expect(try look(during: { cache.forget(digest("r")) }) == false)
        #expect(try look() == false, "what was computed while forgotten was not kept")
        #expect(try look() == true)
        #expect(calls.withLock { $0 } == 3)
    }

    @Test func failuresAreSharedButNeverKept() {
        let cache = Self.cache(ttl: .seconds(60), maxBytes: 1 << 20)
        let calls = Mutex(0)
        for _ in 0..<2 {
            #expect(throws: UpstreamFailure.unavailable(reason: "down")) {
                _ = try cache.verdict(for: digest("r"), deadline: deadline) { () throws(UpstreamFailure) in
                    calls.withLock { $0 += 1 }
                    throw .unavailable(reason: "down")
                }
            }
        }
        #expect(calls.withLock { $0 } == 2)
        #expect(cache.usage.entries == 0)
    }

    @Test func theByteBudgetEvictsTheLeastRecentlyUsed() throws {
        let cache = Self.cache(ttl: .seconds(60), maxBytes: 1000)
        func fill(_ name: String) throws -> Bool {
            try cache.verdict(for: digest(name), deadline: deadline) { () throws(UpstreamFailure) in
                (Self.verified, cost: 400)
            }.cached
        }
        #expect(try !fill("a"))
        #expect(try !fill("b"))
        #expect(try fill("a"))  // a is now the most recently used
        #expect(try !fill("c"))  // evicts b
        #expect(cache.usage == (entries: 2, bytes: 800))
        #expect(try fill("a"))
        #expect(try !fill("b"))
    }

    @Test func evictionStaysCheapAndBoundedUnderChurn() throws {
        let cache = Self.cache(ttl: .seconds(60), maxBytes: 10_000)
        for index in 0..<30_000 {
            _ = try cache.verdict(for: digest("r\(index % 3000)"), deadline: deadline) { () throws(UpstreamFailure) in
                (Self.verified, cost: 100)
            }
        }
        #expect(cache.usage == (entries: 100, bytes: 10_000))
        #expect(cache.queuedRecords <= 2 * 100 + 1024)
    }

    @Test func aZeroTTLKeepsNothing() throws {
        let cache = Self.cache(ttl: .zero, maxBytes: 1000)
        _ = try cache.verdict(for: digest("a"), deadline: deadline) { () throws(UpstreamFailure) in
            (Self.verified, cost: 10)
        }
        #expect(cache.usage.entries == 0)
    }

    @Test func aWaiterGivesUpAtItsDeadline() {
        let cache = Self.cache(ttl: .seconds(60), maxBytes: 1000)
        let computing = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let leader = Thread {
            _ = try? cache.verdict(for: digest("slow"), deadline: .now + .seconds(30)) { () throws(UpstreamFailure) in
                computing.signal()
                _ = release.wait(timeout: .now() + 30)  // an answer that is not coming
                return (Self.verified, cost: 10)
            }
        }
        leader.start()
        #expect(computing.wait(timeout: .now() + 10) == .success)
        let started = ContinuousClock.now
        #expect(throws: UpstreamFailure.unavailable(reason: "unfinished")) {
            _ = try cache.verdict(for: digest("slow"), deadline: .now + .milliseconds(300)) {
                () throws(UpstreamFailure) in
                (Self.verified, cost: 10)
            }
        }
        #expect(started.duration(to: .now) < .seconds(1))
    }

    @Test func digestsNeverShowTheReceipt() {
        let shown = "\(digest("TUlJVFJBTlNBQ1RJT04="))"
        #expect(shown.count == 12)
        #expect(!shown.contains("TUlJ"))
        #expect(digest("x") != ReceiptDigest(receiptData: "x", excludeOldTransactions: true))
    }
}
