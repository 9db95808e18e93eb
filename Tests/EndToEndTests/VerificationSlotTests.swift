import Foundation
import Testing

extension EndToEnd {
    /// The content-route slot: a ContentHandler is only reachable through the verification service.
    /// Exercised with the test gateway's fixture backend, which a `fixture_verifier` section turns on.
    @Suite struct VerificationSlot {
        @Test func contentRoutesDemandAndCheckACredential() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed, routes: [("/v1/fixture-content", "fixture-content")],
                    extra: "fixture_verifier:\n  enabled: true\n")
            )
            defer { deployment.stop() }
            let path = "/v1/fixture-content/\(SampleContent.issueId)"
            let anonymous = try deployment.request(path)
            #expect(anonymous.status == 401)
            #expect(anonymous.errorCode == "receipt_required")

            let notCovered = try deployment.request(path, headers: [("Authorization", "Bearer other")])
            #expect(notCovered.status == 403)
            #expect(notCovered.errorCode == "not_entitled")

            let otherProduct = try deployment.request(
                path, headers: [("Authorization", "Bearer grant:com.example.monthly")])
            #expect(otherProduct.status == 403)

            let entitled = try deployment.request(
                path, headers: [("Authorization", "Bearer grant:\(SampleContent.issueId)")])
            #expect(entitled.status == 200)
            #expect(entitled.json["product"] as? String == SampleContent.issueId)

            let badBody = try deployment.request(path, method: "POST", body: Array("{not json".utf8))
            #expect(badBody.status == 400)
            #expect(badBody.errorCode == "bad_request")
        }
    }
}
