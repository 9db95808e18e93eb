import Foundation
import Synchronization
import Testing

@testable import PurchaseLedger

@Suite struct GroupCommitTests {
    @Test func concurrentCallersShareCommitsAndEachGetsItsOwnOutcome() {
        let groups = Mutex<[Int]>([])
        let commit = GroupCommit<Int, Int> { items throws(LedgerError) in
            groups.withLock { $0.append(items.count) }
            usleep(20_000)  // an fsync's worth of time, so others queue meanwhile
            return items.map { $0 < 0 ? .failure(.unavailable("negative")) : .success($0 * 10) }
        }
        let outcomes = Mutex<[Int: Result<Int, LedgerError>]>([:])
        DispatchQueue.concurrentPerform(iterations: 40) { index in
            let item = index == 7 ? -1 : index
            let result = Result<Int, LedgerError> { () throws(LedgerError) in try commit.submit(item) }
            outcomes.withLock { $0[index] = result }
        }
        let results = outcomes.withLock { $0 }
        #expect(results.count == 40)
        for (index, result) in results {
            if index == 7 {
                #expect(throws: LedgerError.self) { try result.get() }
            } else {
                #expect((try? result.get()) == index * 10)
            }
        }
        let sizes = groups.withLock { $0 }
        #expect(sizes.reduce(0, +) == 40)
        #expect(sizes.count < 40, "no batching happened: \(sizes)")
    }

    @Test func aFailedCommitFailsItsWholeGroupAndTheNextGroupStillRuns() throws {
        let calls = Mutex(0)
        let commit = GroupCommit<Int, Int> { items throws(LedgerError) in
            let call = calls.withLock { value in
                value += 1
                return value
            }
            if call == 1 { throw .unavailable("disk full") }
            return items.map { .success($0) }
        }
        #expect(throws: LedgerError.self) { try commit.submit(1) }
        #expect(try commit.submit(2) == 2)
    }
}
