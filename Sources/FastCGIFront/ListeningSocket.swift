import GatewayCore
import GatewayServer

#if canImport(Glibc)
    import Glibc
#endif

/// The socket the FastCGI server accepts on: one it created (unix path or TCP) or the one inherited on fd 0.
/// Created here rather than with `FCGX_OpenSocket`, which binds every address for ":port", unlinks live
/// sockets and exits the process on failure.
package final class ListeningSocket: Sendable {
    package let descriptor: Int32
    package let address: ListenAddress
    /// The unix socket file this process created, removed again by ``close()``.
    private let createdPath: String?

    private init(descriptor: Int32, address: ListenAddress, createdPath: String?) {
        self.descriptor = descriptor
        self.address = address
        self.createdPath = createdPath
    }

    /// Opens `address`: binds a new socket, or checks that fd 0 is a listening socket for `.inherited`.
    package static func open(_ address: ListenAddress, mode: UInt32, group: String?, backlog: Int) throws(FrontError)
        -> ListeningSocket
    {
        switch address {
        case .inherited:
            var accepting: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(0, SOL_SOCKET, SO_ACCEPTCONN, &accepting, &size) == 0, accepting == 1 else {
                throw FrontError(
                    "server.listen is not set and fd 0 is not a listening socket; set server.listen, "
                        + "or start storegate from spawn-fcgi or a systemd socket unit"
                )
            }
            return ListeningSocket(descriptor: 0, address: address, createdPath: nil)
        case .unix(let path):
            let fd = try UnixSocketBinder.bind(path: path, mode: mode, group: group)
            return try listening(fd, backlog: backlog, address: address, createdPath: path)
        case .tcp(let host, let port):
            let fd = try TCPSocketBinder.bind(host: host, port: port)
            return try listening(fd, backlog: backlog, address: address, createdPath: nil)
        }
    }

    private static func listening(_ fd: Int32, backlog: Int, address: ListenAddress, createdPath: String?)
        throws(FrontError) -> ListeningSocket
    {
        guard listen(fd, Int32(backlog)) == 0 else {
            let error = FrontError.system("cannot listen on \(address)")
            Glibc.close(fd)
            if let createdPath { unlink(createdPath) }
            throw error
        }
        return ListeningSocket(descriptor: fd, address: address, createdPath: createdPath)
    }

    /// Closes a socket this process created and removes its file. An inherited socket stays open: it belongs
    /// to systemd or spawn-fcgi, which may hand it to the next process, and gets its flags back.
    package func close() {
        guard case .inherited = address else {
            Glibc.close(descriptor)
            if let createdPath { unlink(createdPath) }
            return
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
    }

    /// Makes `accept` on the socket return at once when no connection is waiting, so a worker that lost a
    /// connection to another goes back to waiting with the idle workers (``ConnectionWait``) rather than
    /// blocking in `accept`, where Linux would wake it out of order.
    func acceptWithoutBlocking() throws(FrontError) {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw FrontError.system("cannot make the listening socket non-blocking")
        }
    }
}
