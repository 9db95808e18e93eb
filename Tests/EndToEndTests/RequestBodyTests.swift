import Foundation
import Testing

extension EndToEnd {
    @Suite struct RequestBody {
        @Test func bodiesArriveWholeAndOversizedOnesGet413() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed,
                    routes: [("/v1/echo", "echo"), ("/v1/catalog", "catalog")],
                    server: ["max_body_bytes": "100000"]
                )
            )
            defer { deployment.stop() }
            let body = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            let echoed = try deployment.request("/v1/echo", method: "POST", body: body)
            #expect(echoed.status == 200)
            #expect(echoed.json["length"] as? Int == body.count)
            #expect(echoed.json["sha256"] as? String == SampleContent.sha256(body))

            let tooLarge = try deployment.request("/v1/echo", method: "POST", body: body + [0])
            #expect(tooLarge.status == 413)
            #expect(tooLarge.errorCode == "body_too_large")
            #expect(tooLarge.header("X-Request-Id") != nil)

            // Above nginx's client_max_body_size too: nginx refuses it itself; the gateway never sees it.
            let huge = try deployment.request(
                "/v1/echo", method: "POST", body: [UInt8](repeating: 65, count: 3_000_000))
            #expect(huge.status == 413)
            #expect(try deployment.request("/v1/catalog").status == 200)
        }
    }
}
