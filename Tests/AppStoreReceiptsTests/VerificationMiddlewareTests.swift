import AppStoreReceipts
import GatewayCore
import Logging
import TestbedHandlers
import Testing

@Suite struct VerificationMiddlewareTests {
    private let context = RequestContext(requestId: "t", deadline: .now + .seconds(5), logger: Logger(label: "t"))

    @Test func credentialsComeFromTheBearerHeaderOrTheBody() throws {
        let token = GatewayRequest(method: .get, path: "/", headers: [("HTTP_AUTHORIZATION", "Bearer abc.def")])
        #expect(try Credential(from: token) == .downloadToken("abc.def"))
        let receipt = GatewayRequest(method: .post, path: "/", body: .complete(Array(#"{"receipt-data":"MIIT"}"#.utf8)))
        #expect(try Credential(from: receipt) == .receipt("MIIT"))
    }

    @Test func missingOrMalformedCredentialsAreRefused() {
        #expect(throws: GatewayError.receiptRequired) { try Credential(from: GatewayRequest(method: .get, path: "/")) }
        #expect(throws: GatewayError.receiptRequired) {
            try Credential(from: GatewayRequest(method: .post, path: "/", body: .complete(Array("{}".utf8))))
        }
        #expect(throws: GatewayError.self) {
            try Credential(from: GatewayRequest(method: .post, path: "/", body: .complete(Array("[1".utf8))))
        }
        #expect(throws: GatewayError.self) {
            try Credential(
                from: GatewayRequest(method: .get, path: "/", headers: [("HTTP_AUTHORIZATION", "Basic eA==")]))
        }
    }

    @Test func onlyAGrantForTheRequestedProductBecomesAnEntitlement() throws {
        let middleware = ReceiptVerificationMiddleware(verifier: FixtureVerifier())
        func request(_ token: String) -> GatewayRequest {
            GatewayRequest(method: .get, path: "/", headers: [("HTTP_AUTHORIZATION", "Bearer \(token)")])
        }
        let entitlement = try middleware.verify(request("grant:p1"), productId: "p1", context: context)
        #expect(entitlement.productId == "p1")
        #expect(entitlement.environment == "Sandbox")
        #expect(throws: GatewayError.notEntitled) {
            try middleware.verify(request("grant:p2"), productId: "p1", context: context)
        }
        #expect(throws: GatewayError.notEntitled) {
            try middleware.verify(request("other"), productId: "p1", context: context)
        }
    }
}
