import Foundation
import Testing

extension EndToEnd {
    /// The seal at run time, through real nginx: content leaves only through the entitlement of the request it
    /// was verified for, whatever a handler module answers (the test gateway's attacking handlers).
    @Suite struct Seal {
        @Test func aPlainHandlersPointerAtContentNeverReachesTheWebServer() throws {
            let deployment = try Deployment(
                GatewaySetup(binary: Binaries.testbed, routes: [("/v1/accel-header", "accel-header")]))
            defer { deployment.stop() }
            let answer = try deployment.request("/v1/accel-header")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.body.isEmpty, "nginx sent \(answer.body.count) bytes in the handler's place")
            #expect(answer.header("X-Accel-Redirect") == nil)
            #expect(answer.header("X-Sendfile") == nil)
            // A CGI web server would serve a local Location of a 200 answer in the gateway's place.
            #expect(answer.header("Location") == nil)
            #expect(answer.header("X-Kept") == "yes", "the handler's other headers go out")
        }

        @Test(arguments: ["x-accel", "stream"])
        func contentKeptForAnotherRequestIsRefused(_ delivery: String) throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed,
                    routes: [("/v1/stashing-content", "stashing-content"), ("/v1/replay", "replay")],
                    extra: "fixture_verifier:\n  enabled: true\n", delivery: delivery))
            defer { deployment.stop() }
            let path = "/v1/stashing-content/\(SampleContent.issueId)"
            let entitled = [("Authorization", "Bearer grant:\(SampleContent.issueId)")]
            let first = try deployment.request(path, headers: entitled)
            #expect(first.status == 200, "\(first.text)")
            #expect(SampleContent.sha256(first.body) == SampleContent.issueSHA256)

            // The handler answers the next requests with the answer it kept: a caller entitled to the product, and
            // a caller of a plain route that verifies nothing.
            for (later, headers) in [(path, entitled), ("/v1/replay", [])] {
                let replayed = try deployment.request(later, headers: headers)
                #expect(replayed.status == 500, "\(later): \(replayed.status)")
                #expect(replayed.errorCode == "internal_error")
                #expect(SampleContent.sha256(replayed.body) != SampleContent.issueSHA256)
            }
            let notEntitled = try deployment.request(path, headers: [("Authorization", "Bearer other")])
            #expect(notEntitled.status == 403)
            let refusal = "a handler answered with content made for another request; refused"
            #expect(ManagedProcess.poll(for: .seconds(5)) { deployment.gateway.log.contains(refusal) })
        }
    }
}
