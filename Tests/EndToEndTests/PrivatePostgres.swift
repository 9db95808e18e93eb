import Foundation

/// A PostgreSQL server of the test's own: a fresh cluster in a temporary folder on a free loopback port, so a
/// test can stop and restart it without disturbing the shared server the other tests use. Runs Debian's
/// server binaries, as the `postgres` user when the tests run as root (the server refuses root).
final class PrivatePostgres: @unchecked Sendable {
    let folder: URL
    let port: Int
    private var server: ManagedProcess?
    private var data: String { folder.appendingPathComponent("data").path }

    /// Trust authentication on loopback only; the database is thrown away with the folder.
    var url: String { "postgres://storegate@127.0.0.1:\(port)/postgres?connect_timeout=2" }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storegate-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if Binaries.isRoot {
            try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: folder.path)
        }
        port = try FreePort.next()
        do {
            let initdb = try launch(
                "initdb", ["-D", data, "-A", "trust", "-U", "storegate", "-E", "UTF8", "--no-sync"], log: "initdb.log")
            guard initdb.waitForExit(within: .seconds(60)) == 0 else {
                initdb.stop()
                throw HTTPClient.Failure(description: "initdb failed:\n\(initdb.log)")
            }
            try start()
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
    }

    /// Starts the server (in the foreground, as a managed process) and waits until it accepts connections.
    func start() throws {
        let server = try launch(
            "postgres", ["-D", data, "-p", "\(port)", "-k", folder.path, "-c", "listen_addresses=127.0.0.1"],
            log: "server.log")
        self.server = server
        guard ManagedProcess.poll(for: .seconds(30), { server.log.contains("ready to accept connections") }) else {
            server.stop()
            throw HTTPClient.Failure(description: "PostgreSQL did not start:\n\(server.log)")
        }
    }

    /// Stops the server the way an operator's restart does (fast shutdown: open connections are cut,
    /// nothing committed is lost).
    func stop() throws {
        guard let server, server.process.isRunning else { return }
        server.signal(SIGINT)
        guard server.waitForExit(within: .seconds(30)) != nil else {
            throw HTTPClient.Failure(description: "PostgreSQL did not stop:\n\(server.log)")
        }
    }

    func destroy() {
        try? stop()
        server?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs one of the server programs, as `postgres` when the tests run as root (setpriv execs in place,
    /// so signals reach the program itself).
    private func launch(_ tool: String, _ arguments: [String], log: String) throws -> ManagedProcess {
        let program = Self.serverBinaries.appendingPathComponent(tool).path
        let logFile = folder.appendingPathComponent(log)
        guard Binaries.isRoot else { return try ManagedProcess(program, arguments, logFile: logFile) }
        let asPostgres = ["--reuid=postgres", "--regid=postgres", "--init-groups", "--", program]
        return try ManagedProcess("/usr/bin/setpriv", asPostgres + arguments, logFile: logFile)
    }

    /// Debian keeps the server programs out of PATH, in /usr/lib/postgresql/VERSION/bin; the newest wins.
    private static let serverBinaries: URL = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        let newest = versions.compactMap(Int.init).max().map(String.init) ?? "15"
        return root.appendingPathComponent(newest).appendingPathComponent("bin")
    }()
}
