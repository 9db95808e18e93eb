import Foundation
import GRDB
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Read-only connections for the read a token download makes on every request, one per thread that reads:
/// GRDB's reader pool passes each checkout through two dispatch queues, and any shared checkout is a lock
/// that every download contends for. A worker thread keeps its connection for its life, so there are at
/// most as many as threads reading (bounded by `server.workers`); they close with this value. Each keeps at
/// most `cacheKiB` of pages (``SQLiteLedger/defaultReadCacheKiB``), so their memory is bounded by the workers.
final class SQLiteReaders: Sendable {
    private let path: String
    private let busyTimeout: TimeInterval
    private let cacheKiB: Int
    private let key: pthread_key_t
    /// Every connection opened (a thread's slot refers to its own without keeping it alive).
    private let opened = Mutex<[DatabaseQueue]>([])

    init(path: String, busyTimeout: TimeInterval, cacheKiB: Int) {
        self.path = path
        self.busyTimeout = busyTimeout
        self.cacheKiB = cacheKiB
        var key = pthread_key_t()
        // Fails only when the process has used up its keys (1,024 on glibc), one per open ledger.
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key left for the ledger's readers")
        self.key = key
    }

    deinit { pthread_key_delete(key) }

    /// `body`'s result on this thread's connection, outside any transaction (one statement is consistent by
    /// itself). `body` must not read through this value again.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try connection().inDatabase(body)
    }

    /// Connections opened so far (for tests).
    var openCount: Int { opened.withLock { $0.count } }

    private func connection() throws -> DatabaseQueue {
        if let slot = pthread_getspecific(key) {
            return Unmanaged<DatabaseQueue>.fromOpaque(slot).takeUnretainedValue()
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        configuration.prepareDatabase { [cacheKiB] db in try db.execute(sql: "PRAGMA cache_size = -\(cacheKiB)") }
        let reader = try DatabaseQueue(path: path, configuration: configuration)
        opened.withLock { $0.append(reader) }
        pthread_setspecific(key, Unmanaged.passUnretained(reader).toOpaque())
        return reader
    }
}
