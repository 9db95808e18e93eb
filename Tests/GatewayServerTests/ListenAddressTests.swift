import GatewayServer
import Testing

@Suite struct ListenAddressTests {
    private func parse(_ text: String) -> Result<ListenAddress, ListenAddress.Problem> {
        ListenAddress.parse(text, resolve: { $0.hasPrefix("/") ? $0 : "/etc/storegate/" + $0 })
    }

    @Test func acceptedForms() throws {
        #expect(try parse("/run/storegate/storegate.sock").get() == .unix(path: "/run/storegate/storegate.sock"))
        #expect(try parse("run/sg.sock").get() == .unix(path: "/etc/storegate/run/sg.sock"))
        #expect(try parse("unix:sg.sock").get() == .unix(path: "/etc/storegate/sg.sock"))
        #expect(try parse("127.0.0.1:9000").get() == .tcp(host: "127.0.0.1", port: 9000))
        #expect(try parse("[::1]:9000").get() == .tcp(host: "::1", port: 9000))
        #expect(try parse("localhost:9000").get() == .tcp(host: "localhost", port: 9000))
    }

    @Test(arguments: [":9000", "127.0.0.1", "127.0.0.1:0", "127.0.0.1:70000", "::1:9000", "[::1]9000", "host:port"])
    func refusedForms(text: String) {
        #expect(throws: ListenAddress.Problem.self) { try parse(text).get() }
    }
}
