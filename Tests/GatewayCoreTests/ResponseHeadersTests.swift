import GatewayCore
import Testing

@Suite struct ResponseHeadersTests {
    /// Apache skips any white space before a CGI answer's `Location` path, a vertical tab and a form feed too.
    @Test(arguments: ["/x", " /x", "\t/x", "\u{0B}/x", "\u{0C}/x", " \u{0B}\t/x"])
    func aLocalLocationIsSeenWhateverSpaceComesFirst(_ value: String) {
        #expect(ResponseHeaders([("Location", value)]).hasLocalLocation)
    }

    @Test func anotherServersLocationIsNotLocal() {
        #expect(!ResponseHeaders([("Location", "https://example.com/x")]).hasLocalLocation)
    }

    @Test func contentGoesOutPrivateWhateverCachingHeadersCameWithIt() {
        let headers = ResponseHeaders([
            ("Content-Type", "application/pdf"), ("Cache-Control", "public, max-age=60"),
            ("CDN-Cache-Control", "max-age=60"),
            ("cloudflare-cdn-cache-control", "max-age=60"), ("Surrogate-Control", "max-age=60"),
            ("Edge-Control", "cache-maxage=60s"), ("Expires", "never"),
            ("Pragma", "cache"), ("ETag", "\"1\""),
        ]).forContent()
        #expect(
            headers.pairs.map { "\($0.name): \($0.value)" }
                == ["Content-Type: application/pdf", "ETag: \"1\"", "Cache-Control: private, no-store"])
    }

    /// Headers that have a web server send a file or fetch a URL in the gateway's place are never added.
    @Test(arguments: [
        "X-Accel-Redirect", "x-accel-buffering", "X-Sendfile", "X-Sendfile2", "X-LIGHTTPD-send-file",
        "X-LiteSpeed-Location", "x-litespeed-cache-control", "X-Reproxy-URL", "X-Reproxy-Expected-Size",
    ])
    func aHeaderThatInstructsTheWebServerIsDropped(_ name: String) {
        #expect(ResponseHeaders([(name, "/x"), ("X-Kept", "1")]).pairs.map(\.name) == ["X-Kept"])
    }
}
