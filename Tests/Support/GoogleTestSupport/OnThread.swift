import Foundation

/// Runs blocking work (the client blocks its thread as it blocks a gateway worker) on a thread of its own, so
/// Swift Testing's few pool threads are never blocked.
public enum OnThread {
    public static func result<T: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> T
    ) async -> Result<T, Failure> {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { () throws(Failure) in try body() }) }.start()
        }
    }

    public static func value<T: Sendable, Failure: Error>(_ body: @escaping @Sendable () throws(Failure) -> T)
        async throws(Failure) -> T
    {
        try await result(body).get()
    }
}
