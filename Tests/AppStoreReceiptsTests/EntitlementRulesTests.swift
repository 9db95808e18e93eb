import AppStoreReceipts
import Foundation
import ProductCatalog
import PurchaseLedger
import Testing

@Suite struct EntitlementRulesTests {
    let catalog = Catalog(
        products: [
            Product(id: "book", kind: .nonConsumable, title: "", description: "", content: nil),
            Product(id: "coins", kind: .consumable, title: "", description: "", content: nil),
            Product(id: "monthly", kind: .autoRenewable, title: "", description: "", content: nil),
            Product(id: "season", kind: .nonRenewing, title: "", description: "", content: nil),
            Product(id: "free", kind: .freeSubscription, title: "", description: "", content: nil),
        ],
        contentRoot: "/tmp"
    )
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func transaction(
        _ id: String, _ product: String, original: String? = nil, lineItem: String? = nil, expires: Double? = nil,
        cancelled: Bool = false
    ) -> AppleTransaction {
        var fields: [String: JSONValue] = ["transaction_id": .string(id), "product_id": .string(product)]
        if let original { fields["original_transaction_id"] = .string(original) }
        if let lineItem { fields["web_order_line_item_id"] = .string(lineItem) }
        if let expires { fields["expires_date_ms"] = .integer(Int64((now.timeIntervalSince1970 + expires) * 1000)) }
        if cancelled { fields["cancellation_date_ms"] = .string("1700000000000") }
        return AppleTransaction(.object(fields))!
    }

    @Test func whatEntitles() {
        let entitlements = EntitlementRules.entitlements(
            from: [
                transaction("1", "book"), transaction("2", "coins"), transaction("3", "free"),
                transaction("4", "monthly", lineItem: "a", expires: -3600), transaction("5", "season", expires: 86_400),
                transaction("6", "unknown-to-catalog"),
            ],
            catalog: catalog, now: now)
        #expect(entitlements.map(\.productId) == ["book", "free", "season"])
    }

    @Test func refundsRevokeAndTheLatestPeriodWins() {
        let entitlements = EntitlementRules.entitlements(
            from: [
                transaction("1", "book", cancelled: true),
                transaction("2", "monthly", original: "2", lineItem: "a", expires: 86_400),
                transaction("3", "monthly", original: "2", lineItem: "b", expires: 40 * 86_400),
                transaction("4", "monthly", original: "2", lineItem: "c", expires: 70 * 86_400, cancelled: true),
            ],
            catalog: catalog, now: now)
        #expect(entitlements.map(\.productId) == ["monthly"])
        #expect(entitlements.first?.expiresDate == now.addingTimeInterval(40 * 86_400))
        #expect(entitlements.first?.originalTransactionId == "2")
    }

    @Test func ledgerKeysFollowTheProductKind() {
        #expect(
            EntitlementRules.purchaseKey(of: transaction("9", "book", original: "1"), catalog: catalog)
                == .original("1"))
        #expect(
            EntitlementRules.purchaseKey(of: transaction("9", "monthly", lineItem: "L"), catalog: catalog)
                == .subscriptionPeriod("L"))
        #expect(EntitlementRules.purchaseKey(of: transaction("9", "monthly"), catalog: catalog) == .transaction("9"))
        #expect(
            EntitlementRules.purchaseKey(of: transaction("9", "coins", original: "1"), catalog: catalog)
                == .transaction("9"))
        #expect(
            EntitlementRules.purchaseKey(of: transaction("9", "unknown", original: "1"), catalog: catalog)
                == .transaction("9"))
    }
}
