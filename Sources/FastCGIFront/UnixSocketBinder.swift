#if canImport(Glibc)
    import Glibc
#endif

/// Binds a unix socket file with exact permissions, refusing to take over a live socket.
enum UnixSocketBinder {
    static func bind(path: String, mode: UInt32, group: String?) throws(FrontError) -> Int32 {
        let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
        guard path.utf8.count < capacity else {
            throw FrontError("socket path \(path) is longer than \(capacity - 1) bytes")
        }
        try removeStale(path, address: address(of: path))
        // Bound in a private folder beside it, given its mode and group there, then renamed into place: the
        // file never exists at `path` with looser permissions than asked for, and no process-wide umask
        // changes under the other threads.
        let folder = try privateFolder(beside: path)
        defer { rmdir(folder) }
        let staged = folder + "/s"
        guard staged.utf8.count < capacity else {
            throw FrontError("socket path \(path) is too long to stage beside itself in \(folder)")
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FrontError.system("cannot create a unix socket") }
        var address = address(of: staged)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let error = FrontError.system("cannot bind \(path)")
            close(fd)
            throw error
        }
        do throws(FrontError) {
            try setOwnership(staged, mode: mode, group: group)
            guard rename(staged, path) == 0 else { throw FrontError.system("cannot move the socket to \(path)") }
        } catch {
            close(fd)
            unlink(staged)
            throw error
        }
        return fd
    }

    private static func address(of path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: path.utf8) }
        return address
    }

    /// A new folder only this user can enter, in the folder of `path`.
    private static func privateFolder(beside path: String) throws(FrontError) -> String {
        let parent = path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
        var template = Array((parent + "/.sgXXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else { throw FrontError.system("cannot create a private folder beside \(path)") }
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Removes a socket file nobody listens on; refuses when a server answers there or the file is no socket.
    private static func removeStale(_ path: String, address: sockaddr_un) throws(FrontError) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw FrontError("\(path) exists and is not a socket; not replacing it")
        }
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(probe) }
        var target = address
        let live = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0
            }
        }
        guard !live else { throw FrontError("another server is already listening on \(path)") }
        unlink(path)
    }

    private static func setOwnership(_ path: String, mode: UInt32, group: String?) throws(FrontError) {
        if let group {
            guard let entry = getgrnam(group) else { throw FrontError("socket_group \(group) does not exist") }
            guard chown(path, uid_t.max, entry.pointee.gr_gid) == 0 else {
                throw FrontError.system("cannot give \(path) to group \(group)")
            }
        }
        guard chmod(path, mode_t(mode)) == 0 else {
            throw FrontError.system("cannot set the mode of \(path)")
        }
    }
}
