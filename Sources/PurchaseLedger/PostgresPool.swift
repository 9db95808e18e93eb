import Foundation

/// Up to `size` libpq connections shared by the gateway's worker threads. A caller waits at most
/// `waitLimit` for a free one; connections broken by a server restart are dropped and replaced on demand,
/// so the ledger recovers by itself once PostgreSQL is back.
final class PostgresPool: @unchecked Sendable {
    private let url: String
    private let size: Int
    private let waitLimit: TimeInterval
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0

    init(url: String, size: Int, waitLimit: TimeInterval = 5) {
        self.url = url
        self.size = size
        self.waitLimit = waitLimit
    }

    /// Runs `body` with a connection; a failure on a broken connection discards it.
    @discardableResult
    func withConnection<T>(_ body: (PostgresConnection) throws(LedgerError) -> T) throws(LedgerError) -> T {
        let connection = try acquire()
        do {
            let value = try body(connection)
            release(connection)
            return value
        } catch {
            release(connection)
            throw error
        }
    }

    private func acquire() throws(LedgerError) -> PostgresConnection {
        while let kept = try reserve() {
            if kept.isAlive { return kept }
            // A server restart cut this one; its slot goes to the next kept connection or a new one.
            condition.withLock { open -= 1 }
        }
        do {
            return try PostgresConnection(url: url)
        } catch {
            condition.withLock {
                open -= 1
                condition.signal()
            }
            throw error
        }
    }

    /// An idle connection, or nil once a slot for a new one is reserved.
    private func reserve() throws(LedgerError) -> PostgresConnection? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date().addingTimeInterval(waitLimit)
        while idle.isEmpty && open >= size {
            guard condition.wait(until: deadline) else {
                throw .unavailable("all \(size) PostgreSQL connections are busy")
            }
        }
        if let connection = idle.popLast() { return connection }
        open += 1
        return nil
    }

    private func release(_ connection: PostgresConnection) {
        condition.withLock {
            if connection.isHealthy {
                idle.append(connection)
            } else {
                open -= 1
            }
            condition.signal()
        }
    }
}
