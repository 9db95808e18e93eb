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
        Task {
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

/// Carries a result from a task to the thread waiting on a semaphore (which orders the accesses).
private final class ResultBox<T, Failure: Error>: @unchecked Sendable {
    var value: Result<T, Failure>?
}
