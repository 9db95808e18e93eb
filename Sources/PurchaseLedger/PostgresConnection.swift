import CLibPQ
import Foundation

/// One libpq connection, used by one thread at a time (the pool hands it out). Parameters travel as text
/// with `PQexecParams`, never spliced into SQL.
final class PostgresConnection {
    private let connection: OpaquePointer

    /// Connects to `url` (`postgres://user:password@host:port/db?...`), with the `PG…` variables taken at start
    /// for what it leaves out (``LibPQEnvironment``).
    init(url: String) throws(LedgerError) {
        let parameters = LibPQEnvironment.parameters(url: Self.failingFast(url))
        let keywords = parameters.map { UnsafePointer(strdup($0.keyword)) } + [nil]
        let values = parameters.map { UnsafePointer(strdup($0.value)) } + [nil]
        defer { for text in keywords + values { free(UnsafeMutablePointer(mutating: text)) } }
        guard let connection = PQconnectdbParams(keywords, values, 1) else {
            throw .unavailable("libpq could not allocate a connection")
        }
        self.connection = connection
        guard PQstatus(connection) == CONNECTION_OK else {
            // deinit finishes the failed connection.
            throw .unavailable("cannot connect to PostgreSQL: \(Self.message(connection))")
        }
        // Notices ("already exists, skipping" from migrations) are not problems; libpq would print them to stderr.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit {
        PQfinish(connection)
    }

    /// False once a call on it failed because the server went away; the pool then drops the connection.
    var isHealthy: Bool { PQstatus(connection) == CONNECTION_OK }

    /// Like `isHealthy`, but reads what is pending first (without blocking: libpq's sockets are non-blocking),
    /// so an idle connection cut by a server restart is noticed before it is used.
    var isAlive: Bool { PQconsumeInput(connection) == 1 && isHealthy }

    /// libpq waits for a silent server as long as the kernel does; a gateway answers 503 quickly instead.
    private static func failingFast(_ url: String) -> String {
        guard !url.contains("connect_timeout=") else { return url }
        return url + (url.contains("?") ? "&" : "?") + "connect_timeout=5"
    }

    /// Runs `sql` with `$1...` parameters and returns the rows as text (nil for NULL).
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(LedgerError) -> [[String?]] {
        let result = withParameters(parameters) { values in
            PQexecParams(connection, sql, Int32(parameters.count), nil, values, nil, nil, 0)
        }
        guard let result else { throw .unavailable("PostgreSQL: \(Self.message(connection))") }
        defer { PQclear(result) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK else {
            let reason = PQresultErrorMessage(result).map { String(cString: $0) } ?? "unknown error"
            throw .unavailable("PostgreSQL: \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return (0..<PQntuples(result)).map { row in
            (0..<PQnfields(result)).map { column in
                PQgetisnull(result, row, column) == 1 ? nil : String(cString: PQgetvalue(result, row, column))
            }
        }
    }

    /// Runs statements without parameters, several at once (schema migrations).
    func executeScript(_ sql: String) throws(LedgerError) {
        guard let result = PQexec(connection, sql) else {
            throw .unavailable("PostgreSQL: \(Self.message(connection))")
        }
        defer { PQclear(result) }
        guard PQresultStatus(result) == PGRES_COMMAND_OK else {
            let reason = PQresultErrorMessage(result).map { String(cString: $0) } ?? "unknown error"
            throw .unavailable("PostgreSQL: \(reason.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }

    private func withParameters<T>(_ parameters: [String?], _ body: ([UnsafePointer<CChar>?]) -> T) -> T {
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        return body(copies.map { $0.map { UnsafePointer($0) } })
    }

    private static func message(_ connection: OpaquePointer) -> String {
        PQerrorMessage(connection).map { String(cString: $0) }?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }
}
