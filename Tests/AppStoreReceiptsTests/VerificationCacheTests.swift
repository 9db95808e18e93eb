import Foundation
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
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let result = try? cache.verdict(for: digest("same"), deadline: deadline) { () throws(UpstreamFailure) in
                computations.withLock { $0 += 1 }
                usleep(200_000)
                return (Self.verified, cost: 100)
            }
            if result?.cached == true { fromCache.withLock { $0 += 1 } }
        }
        #expect(computations.withLock { $0 } == 1)
        #expect(fromCache.withLock { $0 } == 15)
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
        let leader = Thread {
            _ = try? cache.verdict(for: digest("slow"), deadline: .now + .seconds(5)) { () throws(UpstreamFailure) in
                usleep(1_500_000)
                return (Self.verified, cost: 10)
            }
        }
        leader.start()
        usleep(100_000)
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
