import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification
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
        contentRoot: "/tmp", version: "test"
    )
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func transaction(
        _ id: String, _ product: String, original: String? = nil, lineItem: String? = nil, expires: Double? = nil,
        cancelled: Bool = false
    ) -> PurchaseTransaction {
        PurchaseTransaction(
            transactionId: id, originalTransactionId: original ?? id, productId: product, webOrderLineItemId: lineItem,
            purchaseDate: nil, expiresDate: expires.map { now.addingTimeInterval($0) },
            cancellationDate: cancelled ? Date(timeIntervalSince1970: 1_700_000_000) : nil, quantity: 1)
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
