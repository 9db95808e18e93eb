import Foundation
import GatewayHandlerAPI

/// `GET /support` (mounted by the operator, reachable only from local addresses or behind authentication in
/// nginx): a read-only page for the people who answer customer mail. A search box takes an order id (from
/// Apple's receipt email, or Google Play's), a transaction id or an original transaction id; the answer shows each purchase it
/// names with its timeline from the ledger, and Apple's current view when `apple.server_api` is set.
/// Server-rendered HTML, no scripts, no external assets, every value escaped.
public struct SupportHandler: GatewayHandler {
    public static let name = "support"

    private let desk: SupportDesk

    public init(_ setup: HandlerSetup, needs desk: SupportDesk) {
        self.desk = desk
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let searched = SupportPage.parameter("q", in: request.query)?.trimmingCharacters(in: .whitespaces) ?? ""
        let page: SupportPage
        if searched.isEmpty {
            page = SupportPage(searched: "")
        } else if let query = Self.query(searched) {
            page = SupportPage(searched: searched, lookup: try desk.lookUp(query, context: context))
        } else {
            page = SupportPage(searched: searched, problem: "Not an order id or a transaction id.")
        }
        return GatewayResponse(
            status: 200,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store"),
                ("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"),
                ("X-Frame-Options", "DENY"), ("Referrer-Policy", "no-referrer"),
            ],
            body: Array(page.html.utf8))
    }

    /// Digits are a transaction id; `grant-` and hex digits a free grant's id; letters and digits an order id,
    /// with the dots, dashes and colons of Google's (`GPA.3371-1234-5678-90123..0`, and the ledger's own
    /// `google-play:com.example.reader:GPA.…`); anything else neither.
    static func query(_ text: String) -> SupportQuery? {
        if text.hasPrefix("grant-"), text.count == 22, text.dropFirst(6).allSatisfy(\.isHexDigit) {
            return .grantId(text)
        }
        guard (1...200).contains(text.count),
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_:".contains($0)) })
        else { return nil }
        return text.allSatisfy(\.isNumber) ? .transactionId(text) : .orderId(text)
    }
}
