import GatewayCore

/// The `server` section: how the front listens and how much it takes on.
package struct ServerSettings: Sendable, Equatable {
    package var listen: ListenAddress
    /// Permissions of a unix socket the server creates (`socket_mode`, octal text, default 0660).
    package var socketMode: UInt32
    /// Group to give a created unix socket, such as `www-data`, so nginx can connect.
    package var socketGroup: String?
    /// Worker threads, each serving one request (or one kept FastCGI connection) at a time.
    package var workers: Int
    package var maxBodyBytes: Int
    package var shutdownGrace: Duration
    /// After this long the front answers 504 `timeout` itself (`request_timeout_ms`).
    package var requestTimeout: Duration
    /// Pending connections the kernel queues while every worker is busy.
    package var backlog: Int

    /// Reads the `server` scope, recording problems in `reader`.
    package init(_ reader: ConfigReader) {
        listen = .inherited
        if let text = reader.string("listen"), !text.isEmpty {
            switch ListenAddress.parse(text, resolve: reader.resolvePath) {
            case .success(let address): listen = address
            case .failure(let problem): reader.report("listen", "\"\(text)\": \(problem.message)")
            }
        }
        socketMode = 0o660
        let modeText = reader.string("socket_mode", default: "0660")
        if let mode = UInt32(modeText, radix: 8), mode <= 0o777 {
            socketMode = mode
        } else {
            reader.report("socket_mode", "must be octal permissions such as \"0660\", not \"\(modeText)\"")
        }
        socketGroup = reader.string("socket_group").flatMap { $0.isEmpty ? nil : $0 }
        workers = reader.int("workers", default: 128, in: 1...4096)
        maxBodyBytes = reader.int("max_body_bytes", default: 1_048_576, in: 0...1_073_741_824)
        shutdownGrace = .seconds(reader.int("shutdown_grace_s", default: 10, in: 0...3600))
        requestTimeout = .milliseconds(reader.int("request_timeout_ms", default: 30_000, in: 100...3_600_000))
        backlog = reader.int("backlog", default: 1024, in: 1...65535)
    }
}
