import Foundation
import GatewayHandlerAPI

/// The reader's page: plain values in, HTML out, every text escaped (a product title is the catalog's, an
/// account id the app's: neither is trusted as markup).
public struct LibraryPage: Sendable, Equatable {
    /// One product the account holds.
    public struct Item: Sendable, Equatable {
        public let title: String
        public let productId: String
        /// When a subscription's period ends; nil for a purchase that does not expire.
        public let expires: Date?

        public init(title: String, productId: String, expires: Date?) {
            self.title = title
            self.productId = productId
            self.expires = expires
        }
    }

    public let heading: String
    public let accountId: String
    public let items: [Item]

    public init(heading: String, accountId: String, items: [Item]) {
        self.heading = heading
        self.accountId = accountId
        self.items = items
    }

    /// The whole page.
    public func html() -> String {
        let list =
            items.isEmpty
            ? "<p class=\"empty\">Nothing here yet: what you buy in the app appears here.</p>"
            : "<ul>\n" + items.map(Self.row).joined(separator: "\n") + "\n</ul>"
        return """
            <!doctype html>
            <html lang="en">
            <head><meta charset="utf-8"><title>\(HTMLText.escaped(heading))</title></head>
            <body>
            <h1>\(HTMLText.escaped(heading))</h1>
            <p class="account">Signed in as \(HTMLText.escaped(accountId))</p>
            \(list)
            </body>
            </html>

            """
    }

    private static func row(_ item: Item) -> String {
        let until = item.expires.map { " <span class=\"until\">until \($0.formatted(.iso8601))</span>" } ?? ""
        return "<li data-product=\"\(HTMLText.escaped(item.productId))\">\(HTMLText.escaped(item.title))\(until)</li>"
    }
}
