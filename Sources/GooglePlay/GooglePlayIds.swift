import Foundation
import GatewayHandlerAPI

/// How Google's purchases are named in the ledger and answers: qualified by the store and the app, so they
/// never meet an App Store transaction id (`google-play:com.example.reader:GPA.3371-1234-5678-90123`). A
/// purchase without an order id (some test and promotional purchases) is named by a digest of its token,
/// never by the token itself.
enum GooglePlayIds {
    static let store = "google-play"

    /// The id of the order `orderId` of the app `packageName`.
    static func order(_ orderId: String, packageName: String) -> String {
        "\(store):\(packageName):\(orderId)"
    }

    /// The order id in `id`, the ledger's id of an order of the app `packageName`; nil for another's.
    static func orderId(of id: String, packageName: String) -> String? {
        let prefix = order("", packageName: packageName)
        guard id.hasPrefix(prefix), id.count > prefix.count else { return nil }
        return String(id.dropFirst(prefix.count))
    }

    /// The purchase a subscription's orders belong to: its first order (`GPA.…`, renewals add `..0`, `..1`).
    static func subscription(_ orderId: String, packageName: String) -> String {
        let base = orderId.range(of: "..").map { String(orderId[..<$0.lowerBound]) } ?? orderId
        return order(base, packageName: packageName)
    }

    /// The id of a purchase Google gave no order id, from its purchase token.
    static func token(_ token: String, packageName: String) -> String {
        "\(store):\(packageName):token-\(TokenDigest.hex(token).prefix(32))"
    }
}
