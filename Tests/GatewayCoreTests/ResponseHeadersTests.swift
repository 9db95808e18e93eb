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
            ("cloudflare-cdn-cache-control", "max-age=60"), ("Surrogate-Control", "max-age=60"), ("Expires", "never"),
            ("Pragma", "cache"), ("ETag", "\"1\""),
        ]).forContent()
        #expect(
            headers.pairs.map { "\($0.name): \($0.value)" }
                == ["Content-Type: application/pdf", "ETag: \"1\"", "Cache-Control: private, no-store"])
    }
}
