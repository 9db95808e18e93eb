import Foundation
import GatewayHandlerAPI
import GatewayServer
import Logging
import Testing

/// A handler that needs a `handlers.greeting.text` key and answers with it.
struct GreetingHandler: GatewayHandler {
    static let name = "greeting"
    let text: String

    init(_ setup: HandlerSetup, needs: NoNeeds) throws {
        guard let text = setup.config.requiredString("text") else { throw ConfigProblems([]) }
        self.text = text
    }

    func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        if request.query == "fail" { throw CancellationError() }
        return .json(Array("\"\(text)\"".utf8))
    }
}

@Suite struct GatewayApplicationTests {
    private let runtime = GatewayRuntime(stats: GatewayStats(), logger: Logger(label: "test"))

    private func load(_ yaml: String) throws(ConfigProblems) -> GatewayApplication {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("gateway-\(UUID()).yaml")
        try? yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try GatewayApplication.load(
            configFile: file.path,
            registry: HandlerRegistry([.module(GreetingHandler.self)]),
            environment: [:],
            runtime: runtime,
            capabilities: { _ in NoCapabilities() }
        )
    }

    @Test func loadsRoutesAndAnswersThroughTheChain() throws {
        let application = try load(
            "routes:\n  - { path: /hello/, handler: greeting }\nhandlers:\n  greeting:\n    text: hi\n")
        #expect(application.router.routes.map(\.path) == ["/hello"])
        let request = GatewayRequest(method: .get, path: "/hello", headers: [("HTTP_X_REQUEST_ID", "abc")])
        let exchange = application.exchange(for: request)
        let response = exchange.respond()
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "\"hi\"")
        #expect(exchange.context.requestId == "abc")
    }

    @Test func reportsEveryProblemOfTheLoad() {
        do {
            _ = try load(
                "server:\n  workers: 0\nroutes:\n  - { path: /a, handler: greeting }\n  - { path: /a, handler: greeting }\n"
                    + "  - { path: /b, handler: missing }\n  - { handler: greeting }\n"
            )
            Issue.record("the load must fail")
        } catch {
            let paths = error.problems.map(\.keyPath)
            #expect(paths.contains("server.workers"))
            #expect(paths.contains("handlers.greeting.text"))
            #expect(paths.contains("routes[1].path"))
            #expect(paths.contains("routes[2].handler"))
            #expect(paths.contains("routes[3].path"))
            #expect(Set(paths).count == paths.count, "each problem once: \(paths)")
        }
    }

    @Test func aConfigWithoutRoutesIsRefused() {
        #expect(throws: ConfigProblems.self) { try load("server:\n  workers: 2\n") }
    }

    @Test func errorsBecomeJSONAndUnexpectedOnes500() throws {
        let application = try load(
            "routes:\n  - { path: /hello, handler: greeting }\nhandlers: { greeting: { text: hi } }\n")
        func answer(_ request: GatewayRequest) -> GatewayResponse {
            application.exchange(for: request).respond()
        }
        let missing = answer(GatewayRequest(method: .get, path: "/nope"))
        #expect(missing.status == 404)
        #expect(
            String(decoding: missing.body, as: UTF8.self)
                == #"{"error":{"code":"not_found","message":"No such route."}}"#)
        #expect(answer(GatewayRequest(method: .get, path: "/hello", query: "fail")).status == 500)
        #expect(answer(GatewayRequest(method: .get, path: "/hello", body: .tooLarge(declaredLength: 9))).status == 413)
        #expect(answer(GatewayRequest(method: .get, path: "/hello", body: .malformed("short"))).status == 400)
    }

    @Test func theFrontCanAnswerATimeoutThroughTheSameChain() throws {
        let application = try load(
            "routes:\n  - { path: /hello, handler: greeting }\nhandlers: { greeting: { text: hi } }\n")
        let request = GatewayRequest(method: .get, path: "/hello", headers: [("HTTP_X_REQUEST_ID", "late")])
        let exchange = application.exchange(for: request)
        let response = exchange.respond(failingWith: .timeout)
        #expect(response.status == 504)
        #expect(response.errorCode == .timeout)
        #expect(exchange.context.requestId == "late")
    }
}

/// A load that offers no capability: the greeting handler needs none.
struct NoCapabilities: CapabilityProvider {
    struct Unavailable: Error {}

    func catalog() throws -> Catalog { throw Unavailable() }
    func purchaseVerifier() throws -> PurchaseVerifier { throw Unavailable() }
    func notificationIntake() throws -> NotificationIntake { throw Unavailable() }
    func accountHoldings() throws -> AccountHoldings { throw Unavailable() }
    func offerSignatures() throws -> OfferSignatures { throw Unavailable() }
    func supportDesk() throws -> SupportDesk { throw Unavailable() }
    func gatewayStatus() throws -> GatewayStatus { throw Unavailable() }
    func metricsText() throws -> MetricsText { throw Unavailable() }
    func contentGate(tokensRequiredBy handler: String?) throws -> any ContentGate { throw Unavailable() }
}
