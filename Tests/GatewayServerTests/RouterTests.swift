import GatewayHandlerAPI
import GatewayServer
import Logging
import Testing

struct Fixed: RouteResponder {
    let name: String
    func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        GatewayResponse(status: 200, body: Array("\(name) \(request.path)".utf8))
    }
}

let testContext = RequestContext(requestId: "t", deadline: .now + .seconds(5), logger: Logger(label: "test"))

@Suite struct RouterTests {
    private let router = Router(routes: [
        .init(
            path: "/v1/catalog", handlerName: "catalog", methods: [.get, .head], servesSubpaths: false,
            responder: Fixed(name: "catalog")),
        .init(
            path: "/v1/download", handlerName: "download", methods: [.get, .post], servesSubpaths: true,
            responder: Fixed(name: "download")),
        .init(
            path: "/v1/download/special", handlerName: "special", methods: [.get], servesSubpaths: true,
            responder: Fixed(name: "special")),
    ])

    private func answer(_ method: HTTPMethod, _ path: String) throws -> String {
        let response = try router.respond(to: GatewayRequest(method: method, path: path), context: testContext)
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func exactAndSubpathRoutes() throws {
        #expect(try answer(.get, "/v1/catalog") == "catalog /v1/catalog")
        #expect(try answer(.get, "/v1/download/com.example.a") == "download /v1/download/com.example.a")
        #expect(try answer(.get, "/v1/download/special/x") == "special /v1/download/special/x")
        #expect(try answer(.post, "/v1/download") == "download /v1/download")
    }

    @Test func unknownPathsAre404AndOnlyExactMatchesCount() {
        for path in ["/v1/catalogue", "/v1/catalog/", "/v1/catalog/x", "/", "/v1/downloads"] {
            #expect(throws: GatewayError.notFound, "\(path)") { try answer(.get, path) }
        }
    }

    /// nginx picks its location from the path with dot segments resolved; a subpath route never takes one, so a
    /// path cannot be one route here and another location there (an eighth reviewer's).
    @Test func subpathsWithDotSegmentsReachNoRoute() throws {
        for path in [
            "/v1/download/../catalog", "/v1/download/special/../x", "/v1/download/./x", "/v1/download/%2e%2E/catalog",
            "/v1/download/a%2F..%2Fb", "/v1/download/..", "/v1/download/%zz/..",
        ] {
            #expect(throws: GatewayError.notFound, "\(path)") { try answer(.get, path) }
        }
        #expect(try answer(.get, "/v1/download/com.example.a.b") == "download /v1/download/com.example.a.b")
        #expect(try answer(.get, "/v1/download/..a") == "download /v1/download/..a")
    }

    @Test func wrongMethodIs405WithAllow() {
        #expect(throws: GatewayError.methodNotAllowed(allowed: [.get, .head])) { try answer(.post, "/v1/catalog") }
        #expect(GatewayError.methodNotAllowed(allowed: [.get, .head]).headers.first?.value == "GET, HEAD")
    }
}
