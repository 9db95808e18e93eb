/// Purchased content a response hands over: a file range the transport streams, a URI the web server
/// serves from its `internal` content location (`X-Accel-Redirect`), or a storage URL it fetches. Only the content path makes one, for
/// the exchange whose entitlement it came from; the front honours it on that exchange alone.
package struct ContentDelivery: Sendable, Equatable, CustomReflectable {
    package enum Body: Sendable, Equatable {
        /// The transport streams this range of a content file.
        case file(FileSlice)
        /// The web server sends the file at this URI of its internal content location.
        case webServer(uri: String)
        /// The web server makes `fetch` itself from its internal location at `uri` and passes the answer on
        /// (`X-Accel-Redirect` with `X-Accel-StoreGate-*`): the client never sees the storage's URL.
        case webServerFetch(uri: String, fetch: WebServerFetch)
        /// The client is sent to this URL (a link minted for this request), as the `Location` of the answer:
        /// carried here, not among the headers, so that an answer kept by a handler is refused as any kept content.
        case redirect(url: String)
    }

    package let body: Body
    /// The exchange (``RequestContext/exchange``) whose entitlement made it.
    package let exchange: UInt64

    package init(_ body: Body, exchange: UInt64) {
        self.body = body
        self.exchange = exchange
    }

    /// Nothing: where the content lives (a file's path, the content location's URI) is the content path's, as
    /// the catalog's mirror keeps it (a twenty-fifth reviewer found the path in a content answer's mirror).
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    /// The `X-Accel-Redirect` URI and, when the web server fetches from the storage, what it fetches.
    package var webServerTarget: (uri: String, fetch: WebServerFetch?)? {
        switch body {
        case .file, .redirect: nil
        case .webServer(let uri): (uri, nil)
        case .webServerFetch(let uri, let fetch): (uri, fetch)
        }
    }

    /// The URL the client is sent to, when the content is a link.
    package var redirectURL: String? {
        if case .redirect(let url) = body { url } else { nil }
    }

    /// The file range, when the transport sends the bytes.
    package var file: FileSlice? {
        if case .file(let slice) = body { slice } else { nil }
    }
}
