import Foundation
import Synchronization
import Testing

@testable import PurchaseLedger

@Suite struct GroupCommitTests {
    @Test func callersWhoArriveDuringACommitShareTheNextAndEachGetsItsOwnOutcome() throws {
        let groups = Mutex<[Int]>([])
        // The first commit is held open until every other caller has queued behind it (as they do behind an
        // fsync), so the batching is what it must be, not what the scheduler happened to allow.
        let firstCommit = DispatchSemaphore(value: 0)
        let commit = GroupCommit<Int, Int> { items throws(LedgerError) in
            let first = groups.withLock { groups in
                groups.append(items.count)
                return groups.count == 1
            }
            if first { _ = firstCommit.wait(timeout: .now() + 30) }
            return items.map { $0 < 0 ? .failure(.unavailable("negative")) : .success($0 * 10) }
        }
        let outcomes = Mutex<[Int: Result<Int, LedgerError>]>([:])
        let callers = DispatchGroup()
        for index in 0..<40 {
            let item = index == 7 ? -1 : index
            callers.enter()
            Thread {
                let result = Result<Int, LedgerError> { () throws(LedgerError) in try commit.submit(item) }
                outcomes.withLock { $0[index] = result }
                callers.leave()
            }.start()
        }
        // Polled: the queue has no signal of its own, and this is the condition the commit is held for.
        let deadline = ContinuousClock.now + .seconds(30)
        while commit.queued < 39, ContinuousClock.now < deadline { usleep(1_000) }
        #expect(commit.queued == 39)
        firstCommit.signal()
        #expect(callers.wait(timeout: .now() + 30) == .success)
        let results = outcomes.withLock { $0 }
        #expect(results.count == 40)
        for (index, result) in results {
            if index == 7 {
                #expect(throws: LedgerError.self) { try result.get() }
            } else {
                #expect((try? result.get()) == index * 10)
            }
        }
        #expect(groups.withLock { $0 } == [1, 39])
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
