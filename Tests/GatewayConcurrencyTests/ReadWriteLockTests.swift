import Dispatch
import GatewayConcurrency
import Synchronization
import Testing

struct ReadWriteLockTests {
    @Test func readersHoldTheLockTogether() {
        let lock = ReadWriteLock(0)
        let firstIn = DispatchSemaphore(value: 0)
        let secondIn = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        // The first reader waits, lock held, for the second to get in: with an exclusive lock it never does
        // and the wait times out.
        let overlapped = Atomic(false)
        DispatchQueue.global().async {
            lock.read { _ in
                firstIn.signal()
                overlapped.store(secondIn.wait(timeout: .now() + 5) == .success, ordering: .relaxed)
            }
            done.signal()
        }
        firstIn.wait()
        lock.read { _ in _ = secondIn.signal() }
        done.wait()
        let readersOverlapped = overlapped.load(ordering: .relaxed)
        #expect(readersOverlapped)
    }

    @Test func writersWaitForReadersAndAreSeenByLaterReaders() {
        let lock = ReadWriteLock([Int]())
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for step in 0..<500 {
                if step % 10 == 0 {
                    lock.write { $0 += [worker, worker] }
                } else {
                    // A change is two appends under one write: a reader let in between them sees an odd count.
                    let count = lock.read { $0.count }
                    #expect(count % 2 == 0)
                }
            }
        }
        #expect(lock.read { $0.count } == 8 * 50 * 2)
    }
}
