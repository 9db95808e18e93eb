import GatewayCore
import Synchronization
import Testing

/// Records its name on the way in and out.
struct Tracing: GatewayMiddleware {
    let name: String
    let trail: Trail

    func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        trail.add("\(name)>")
        defer { trail.add("<\(name)") }
        return try next(request, context)
    }
}

final class Trail: Sendable {
    private let steps = Mutex<[String]>([])
    func add(_ step: String) { steps.withLock { $0.append(step) } }
    var all: [String] { steps.withLock { $0 } }
}

@Suite struct MiddlewareChainTests {
    @Test func runsInListedOrderAroundTheEndpoint() throws {
        let trail = Trail()
        let chain = Chained(Tracing(name: "a", trail: trail), Tracing(name: "b", trail: trail))
        let response = try chain.handle(GatewayRequest(method: .get, path: "/"), context: testContext) { _, _ in
            trail.add("endpoint")
            return GatewayResponse(status: 204)
        }
        #expect(response.status == 204)
        #expect(trail.all == ["a>", "b>", "endpoint", "<b", "<a"])
    }

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
