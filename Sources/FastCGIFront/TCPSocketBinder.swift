#if canImport(Glibc)
    import Glibc
#endif

/// Binds a TCP socket on one named address (never all addresses), IPv6 sockets IPv6-only.
enum TCPSocketBinder {
    static func bind(host: String, port: Int) throws(FrontError) -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw FrontError("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        let info = first.pointee
        let fd = socket(info.ai_family, info.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), info.ai_protocol)
        guard fd >= 0 else { throw FrontError.system("cannot create a socket for \(host)") }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        if info.ai_family == AF_INET6 {
            setsockopt(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        guard Glibc.bind(fd, info.ai_addr, info.ai_addrlen) == 0 else {
            let error = FrontError.system("cannot bind \(host):\(port)")
            close(fd)
            throw error
        }
        return fd
    }
}
