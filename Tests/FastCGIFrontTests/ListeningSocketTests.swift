import Foundation
import GatewayCore
import GatewayServer
import Testing

@testable import FastCGIFront

@Suite struct ListeningSocketTests {
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("sock-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func unixSocketGetsItsModeAndIsRemovedOnClose() throws {
        let folder = try folder()
        let path = folder.appendingPathComponent("s.sock").path
        let socket = try ListeningSocket.open(.unix(path: path), mode: 0o660, group: nil, backlog: 8)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect(attributes[.posixPermissions] as? Int == 0o660)
        #expect(attributes[.type] as? FileAttributeType == .typeSocket)
        // Staged in a private folder beside it, which is gone again.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["s.sock"])
        socket.close()
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func aStaleSocketFileIsReplacedButALiveOneIsNot() throws {
        let path = try folder().appendingPathComponent("s.sock").path
        let first = try ListeningSocket.open(.unix(path: path), mode: 0o600, group: nil, backlog: 8)
        #expect(throws: FrontError.self) {
            try ListeningSocket.open(.unix(path: path), mode: 0o600, group: nil, backlog: 8)
        }
        // Simulate a crash: the descriptor goes away, the file stays.
        close(first.descriptor)
        // Seen refused twice on loaded machines, likely while a process another test started held a copy of the
        // descriptor between its fork and its exec (close-on-exec): the socket is live until then, and refusing it
        // is right. It must be replaced once no one holds it, within a bounded wait.
        let deadline = ContinuousClock.now + .seconds(30)
        var second = try? ListeningSocket.open(.unix(path: path), mode: 0o600, group: nil, backlog: 8)
        while second == nil, ContinuousClock.now < deadline {
            usleep(20_000)
            second = try? ListeningSocket.open(.unix(path: path), mode: 0o600, group: nil, backlog: 8)
        }
        try #require(second, "the stale socket file was never replaced").close()
    }

    @Test func aRegularFileInTheWayIsNeverDeleted() throws {
        let path = try folder().appendingPathComponent("not-a-socket").path
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FrontError.self) {
            try ListeningSocket.open(.unix(path: path), mode: 0o660, group: nil, backlog: 8)
        }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
    }

    @Test func unknownGroupIsRefusedAndLeavesNoFile() throws {
        let path = try folder().appendingPathComponent("s.sock").path
        #expect(throws: FrontError.self) {
            try ListeningSocket.open(.unix(path: path), mode: 0o660, group: "no-such-group-here", backlog: 8)
        }
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(
            try FileManager.default.contentsOfDirectory(
                atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path
            ).isEmpty)
    }

    @Test func tcpBindsTheNamedAddressOnly() throws {
        let socket = try ListeningSocket.open(.tcp(host: "127.0.0.1", port: 0), mode: 0, group: nil, backlog: 8)
        defer { socket.close() }
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket.descriptor, $0, &length) }
        }
        #expect(address.sin_addr.s_addr == inet_addr("127.0.0.1"))
    }
}
