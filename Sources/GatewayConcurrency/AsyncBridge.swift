import Dispatch

/// Runs async work to completion from a FastCGI worker thread (never a Swift concurrency thread): the
/// certificate verifier is async, the workers are not.
package enum AsyncBridge {
    /// Runs `operation` in a task and blocks the calling thread until it returns or throws.
    package static func wait<T: Sendable, Failure: Error>(
        for operation: @escaping @Sendable () async throws(Failure) -> T
    ) throws(Failure) -> T {
        let result = ResultBox<T, Failure>()
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: DispatchTaskExecutor.shared) {
            do throws(Failure) {
                result.value = .success(try await operation())
            } catch {
                result.value = .failure(error)
            }
            done.signal()
        }
        done.wait()
        // The semaphore orders the task's write before this read, and the task always sets a value.
        guard let value = result.value else { preconditionFailure("the task ended without a result") }
        return try value.get()
    }
}

/// Runs the bridge's tasks on dispatch's global queue rather than Swift's cooperative pool (as wide as the cores):
/// a blocked thread of the pool (a synchronous test waiting on a process, a library) would otherwise leave the
/// task waiting, and the worker blocked on it past its deadline. Dispatch adds threads when its own block.
private final class DispatchTaskExecutor: TaskExecutor {
    static let shared = DispatchTaskExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Carries a result from a task to the thread waiting on a semaphore (which orders the accesses).
private final class ResultBox<T, Failure: Error>: @unchecked Sendable {
    var value: Result<T, Failure>?
}
