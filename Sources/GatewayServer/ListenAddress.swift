import GatewayCore

/// Where the FastCGI server listens, from `server.listen`.
package enum ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// A unix socket at this absolute path.
    case unix(path: String)
    /// A TCP address; `host` is an IPv4 or IPv6 literal or a name, without brackets.
    case tcp(host: String, port: Int)
    /// No `server.listen`: the listening socket inherited on fd 0 (spawn-fcgi, systemd socket activation).
    case inherited

    /// Parses `server.listen`: a path (contains `/`, relative ones resolved by `resolve`), `unix:PATH`,
    /// `HOST:PORT` or `[IPV6]:PORT`; a failure says why the text is none of these.
    package static func parse(_ text: String, resolve: (String) -> String) -> Result<ListenAddress, Problem> {
        if text.hasPrefix("unix:") { return .success(.unix(path: resolve(String(text.dropFirst(5))))) }
        if text.contains("/") { return .success(.unix(path: resolve(text))) }
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return .failure(Problem("an IPv6 address is written [ADDRESS]:PORT"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                return .failure(Problem("must be a unix socket path or HOST:PORT"))
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return .failure(Problem("an IPv6 address is written [ADDRESS]:PORT")) }
        }
        guard !host.isEmpty else {
            return .failure(
                Problem("name the address to listen on (127.0.0.1:PORT); an empty host would listen everywhere"))
        }
        guard let port = Int(portText), (1...65535).contains(port) else {
            return .failure(Problem("port must be a number from 1 to 65535"))
        }
        return .success(.tcp(host: String(host), port: port))
    }

    /// Why a `server.listen` value was refused.
    package struct Problem: Error, Sendable, Equatable {
        package let message: String
        package init(_ message: String) { self.message = message }
    }

    package var description: String {
        switch self {
        case .unix(let path): return "unix:\(path)"
        case .tcp(let host, let port): return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .inherited: return "the socket inherited on fd 0"
        }
    }
}
