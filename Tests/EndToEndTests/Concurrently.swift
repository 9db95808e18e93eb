import Foundation

/// Runs `body` on `count` OS threads at once (blocking socket calls would starve the two-thread Swift
/// pool on a two-core machine) and returns the results in index order.
func concurrently<T: Sendable>(_ count: Int, _ body: @escaping @Sendable (Int) -> T) -> [T] {
    let results = LockedBox([T?](repeating: nil, count: count))
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            let value = body(index)
            results.mutate { $0[index] = value }
            group.leave()
        }
    }
    group.wait()
    return results.value.map { $0! }
}

/// A value shared between threads under a lock.
final class LockedBox<Value>: @unchecked Sendable {
    private var stored: Value
    private let lock = NSLock()

    init(_ value: Value) { stored = value }

    var value: Value { lock.withLock { stored } }

    func mutate(_ change: (inout Value) -> Void) { lock.withLock { change(&stored) } }
}
