/// A request the web server makes in the gateway's place (s3-proxy): the URL, and the headers to send with it,
/// which the front passes as `X-Accel-StoreGate-Fetch` and `X-Accel-StoreGate-<name>` for the web server's internal
/// location to set. The credentials travel in headers, never in the URL, which the web server logs when the fetch
/// fails.
package struct WebServerFetch: Sendable, Equatable {
    package struct Header: Sendable, Equatable {
        package let name: String
        package let value: String

        package init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    package let url: String
    package let headers: [Header]

    package init(url: String, headers: [Header]) {
        self.url = url
        self.headers = headers
    }
}
