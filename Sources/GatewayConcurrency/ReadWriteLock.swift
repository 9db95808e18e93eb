#if canImport(Glibc)
    import Glibc
#endif

/// A value that every request reads and few change. Readers share the lock: they never wait for one
/// another and make no system call unless a writer holds it. With hundreds of worker threads on a few
/// cores, a `Mutex` there makes readers queue behind a holder the scheduler has just preempted. Writers
/// are preferred, so a steady stream of readers cannot starve them.
package final class ReadWriteLock<Value>: @unchecked Sendable {
    // Heap-allocated: a pthread lock must not move while in use.
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    private var value: Value

    /// A lock guarding `value`.
    package init(_ value: Value) {
        self.value = value
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// `body`'s result on the value, shared with other readers. `body` must not take this lock again.
    package func read<Result, Failure: Error>(_ body: (borrowing Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(value)
    }

    /// `body`'s result on the value, alone. `body` must not take this lock again.
    package func write<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure)
        -> Result
    {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body(&value)
    }
}
