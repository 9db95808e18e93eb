import GatewayServer
import Testing

@Suite struct RequestIdGeneratorTests {
    @Test func requestIdsAreUniqueAndClientIdsAreScreened() {
        let generator = RequestIdGenerator()
        let ids = (0..<1000).map { _ in generator.next() }
        #expect(Set(ids).count == 1000)
        #expect(ids.allSatisfy(RequestIdGenerator.isAcceptable))
        #expect(RequestIdGenerator.isAcceptable("req-1.2:3_x+y/z="))
        for hostile in ["", "a b", "a\r\nSet-Cookie: x", String(repeating: "a", count: 129), "é"] {
            #expect(!RequestIdGenerator.isAcceptable(hostile), "\(hostile)")
        }
    }
}
