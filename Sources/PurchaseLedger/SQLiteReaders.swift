import Foundation
import GRDB
import Synchronization

/// Read-only connections for the read a token download makes on every request, handed out from a stack
/// under a mutex: GRDB's reader pool passes each checkout through two dispatch queues, and under load a
/// worker sleeps there more often than on the database. A connection is opened when none is idle, so there
/// are at most as many as requests reading at once (bounded by `server.workers`).
final class SQLiteReaders: Sendable {
    private let path: String
    private let busyTimeout: TimeInterval
    private let idle = Mutex<[DatabaseQueue]>([])

    init(path: String, busyTimeout: TimeInterval) {
        self.path = path
        self.busyTimeout = busyTimeout
    }

    /// `body`'s result on a connection of its own, outside any transaction (one statement is consistent by
    /// itself).
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        let reader = try idle.withLock { $0.popLast() } ?? open()
        defer { idle.withLock { $0.append(reader) } }
        return try reader.inDatabase(body)
    }

    /// Connections open and idle (for tests).
    var idleCount: Int { idle.withLock { $0.count } }

    private func open() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        return try DatabaseQueue(path: path, configuration: configuration)
    }
}
