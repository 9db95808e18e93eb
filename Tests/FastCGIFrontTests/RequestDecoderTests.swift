import Foundation
import GatewayCore
import Testing

@testable import FastCGIFront

@Suite struct RequestDecoderTests {
    /// Runs `body` with `parameters` laid out as CGI hands them over: a NULL-terminated array of C strings.
    private func withParameters<T>(
        _ parameters: [String],
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> T
    ) -> T {
        let strings = parameters.map { strdup($0) }
        defer { strings.forEach { free($0) } }
        var array = strings + [nil]
        return array.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    /// The request `parameters` describe, its body read from `body`.
    private func request(_ parameters: [String], body: [UInt8] = []) -> GatewayRequest {
        withParameters(parameters) {
            RequestDecoder.request(from: $0, bodyLimit: 1000, read: Source(body).read)
        }
    }

    @Test func readsWhatRoutingAndHandlersNeed() {
        let request = request(
            [
                "REQUEST_METHOD=POST", "REQUEST_URI=/v1/verify?debug=1", "QUERY_STRING=debug=1",
                "CONTENT_LENGTH=12", "CONTENT_TYPE=application/json", "REMOTE_ADDR=192.0.2.7",
                "HTTP_X_REQUEST_ID=abc", "HTTP_IF_NONE_MATCH=\"v=1\"", "SERVER_SOFTWARE=nginx", "NO_EQUALS_SIGN",
                "HTTP_NO_EQUALS_SIGN", "STOREGATE_ACCOUNTS=no", "STOREGATE_ACCOUNT=42",
            ], body: Array("{\"a\": false}".utf8))
        #expect(request.method == .post)
        #expect(request.path == "/v1/verify")
        #expect(request.query == "debug=1")
        #expect(request.body == .complete(Array("{\"a\": false}".utf8)))
        #expect(request.remoteAddress == "192.0.2.7")
        #expect(request.webServerAccount == "42")
        #expect(request.header("x-request-id") == "abc")
        #expect(request.header("If-None-Match") == "\"v=1\"")
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("No-Equals-Sign") == nil)
    }

    @Test func emptyParametersAreAbsent() {
        let request = request([
            "REQUEST_METHOD=GET", "REQUEST_URI=/v1/catalog", "QUERY_STRING=", "CONTENT_LENGTH=", "CONTENT_TYPE=",
            "REMOTE_ADDR=", "STOREGATE_ACCOUNT=", "HTTP_STOREGATE_ACCOUNT=7",
        ])
        #expect(request.webServerAccount == nil)
        #expect(request.query == "")
        #expect(request.body == .complete([]))
        #expect(request.remoteAddress == nil)
        #expect(request.header("Content-Type") == nil)
    }

    @Test func headersPastTheLimitAreRefused() {
        let huge = "HTTP_X_PADDING=" + String(repeating: "a", count: RequestDecoder.maximumHeaderBytes)
        let request = request(["REQUEST_URI=/v1/catalog", huge])
        #expect(request.body == .malformed("The request headers are larger than 64 KiB."))
        #expect(request.header("X-Padding") == nil)
    }

    @Test func pathInfoWinsWhenTheServerSetsIt() {
        let withInfo = request([
            "REQUEST_URI=/cgi-bin/storegate/v1/catalog", "PATH_INFO=/v1/catalog", "PATH_TRANSLATED=/srv/v1/catalog",
            "QUERY_STRING=a=1", "QUERY_OTHER=b",
        ])
        #expect(withInfo.query == "a=1")
        #expect(withInfo.path == "/v1/catalog")
        let emptyInfo = request(["REQUEST_URI=/v1/catalog", "PATH_INFO="])
        #expect(emptyInfo.path == "/v1/catalog")
    }

    /// A body source that hands out `bytes` in chunks of at most `chunk`, counting what was read.
    private final class Source {
        let bytes: [UInt8]
        let chunk: Int
        var offset = 0
        init(_ bytes: [UInt8], chunk: Int = 7) {
            self.bytes = bytes
            self.chunk = chunk
        }
        func read(_ buffer: UnsafeMutableRawBufferPointer) -> Int {
            let count = min(buffer.count, chunk, bytes.count - offset)
            buffer.copyBytes(from: bytes[offset..<offset + count])
            offset += count
            return count
        }
    }

    @Test func bodyIsReadWholeAcrossChunks() {
        let source = Source(Array(0..<100))
        #expect(RequestDecoder.body(declaredLength: "100", limit: 100, read: source.read) == .complete(Array(0..<100)))
        #expect(RequestDecoder.body(declaredLength: nil, limit: 100, read: source.read) == .complete([]))
    }

    @Test func oversizedBodiesAreDrainedNotKept() {
        let source = Source([UInt8](repeating: 1, count: 200_000), chunk: 65536)
        #expect(
            RequestDecoder.body(declaredLength: "200000", limit: 1000, read: source.read)
                == .tooLarge(declaredLength: 200_000))
        #expect(source.offset == 200_000)
    }

    @Test func lyingOrBrokenLengthsAreMalformed() {
        #expect(
            RequestDecoder.body(declaredLength: "50", limit: 100, read: Source(Array(0..<10)).read)
                == .malformed("The request body ended before Content-Length bytes arrived."))
        #expect(
            RequestDecoder.body(declaredLength: "-1", limit: 100, read: Source([]).read)
                == .malformed("Content-Length is not a number."))
        #expect(
            RequestDecoder.body(declaredLength: "12abc", limit: 100, read: Source([]).read)
                == .malformed("Content-Length is not a number."))
    }
}
