import GatewayCore
import Testing

@testable import FastCGIFront

@Suite struct ResponseEncoderTests {
    private func head(_ response: GatewayResponse, requestId: String? = nil) -> String {
        ResponseEncoder.withHead(for: response, requestId: requestId) { String(decoding: $0, as: UTF8.self) }
    }

    @Test func writesStatusHeadersAndLength() {
        let response = GatewayResponse.json(Array("{}".utf8), headers: [("ETag", "\"v\"")])
        #expect(
            head(response)
                == "Status: 200 OK\r\nContent-Type: application/json\r\nETag: \"v\"\r\nContent-Length: 2\r\n\r\n")
    }

    @Test func headersThatCouldSplitTheResponseAreDropped() {
        let response = GatewayResponse(
            status: 200, headers: [("X-A", "ok"), ("X-B", "bad\r\nSet-Cookie: x=1"), ("X\nC", "v")])
        #expect(head(response) == "Status: 200 OK\r\nX-A: ok\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func theRequestIdComesLastUnlessItCouldSplitTheResponse() {
        let response = GatewayResponse(status: 204, headers: [("X-A", "ok")])
        #expect(
            head(response, requestId: "k3v9q0a-000001a")
                == "Status: 204 No Content\r\nX-A: ok\r\nX-Request-Id: k3v9q0a-000001a\r\nContent-Length: 0\r\n\r\n")
        #expect(
            head(response, requestId: "a\r\nSet-Cookie: x=1")
                == "Status: 204 No Content\r\nX-A: ok\r\nContent-Length: 0\r\n\r\n")
    }

    @Test func notModifiedHasNoLengthAndNoBody() {
        let response = GatewayResponse(status: 304, headers: [("ETag", "\"v\"")])
        #expect(head(response) == "Status: 304 Not Modified\r\nETag: \"v\"\r\n\r\n")
        #expect(!ResponseEncoder.sendsBody(response, method: .get))
        #expect(!ResponseEncoder.sendsBody(GatewayResponse(status: 200, body: [1]), method: .head))
        #expect(ResponseEncoder.sendsBody(GatewayResponse(status: 200, body: [1]), method: .get))
    }
}

extension ResponseEncoderTests {
    @Test func unusualStatusesKeepTheirCode() {
        #expect(head(GatewayResponse(status: 418)) == "Status: 418 Status\r\nContent-Length: 0\r\n\r\n")
        #expect(
            head(GatewayResponse(status: 200, body: Array(repeating: 0, count: 123_456))).hasSuffix(
                "Content-Length: 123456\r\n\r\n"))
    }
}
