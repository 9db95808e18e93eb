import AppStoreServerAPI
import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import Testing

@testable import AppStoreReceipts

/// Which of a recorded purchase's transactions the gateway finishes with Apple (`finish_transactions`), and when.
@Suite struct FinishFollowUpsTests {
    static let content = Product.Content(
        relativePath: "book.epub", size: 1, sha256: String(repeating: "0", count: 64),
        contentType: "application/epub+zip")
    static let catalog = Catalog(
        products: [
            Product(id: "book", kind: .nonConsumable, title: "Book", description: "", content: content),
            Product(id: "coins", kind: .consumable, title: "Coins", description: "", content: nil),
            Product(id: "gems", kind: .consumable, title: "Gems", description: "", content: content),
            Product(id: "monthly", kind: .autoRenewable, title: "Monthly", description: "", content: content),
            Product(id: "season", kind: .nonRenewing, title: "Season", description: "", content: nil),
        ], contentRoot: "/nonexistent", version: "test")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func transaction(_ id: String, _ product: String, hoursAgo: Double = 1, revoked: Bool = false)
        -> PurchaseTransaction
    {
        PurchaseTransaction(
            transactionId: id, originalTransactionId: id, productId: product, webOrderLineItemId: nil,
            purchaseDate: now - hoursAgo * 3_600, expiresDate: nil, cancellationDate: revoked ? now : nil,
            quantity: 1, accountToken: nil)
    }

    static func followUps(_ policy: TransactionFinishing, _ transactions: [PurchaseTransaction])
        -> [String: Bool]
    {
        let finishes = FinishFollowUps(policy: policy, within: 72 * 3_600, catalog: catalog)
        let made = finishes.followUps(of: transactions, environment: "Production", app: "com.example", now: now)
        for followUp in made {
            #expect(followUp.store == "app-store")
            #expect(followUp.action == "finish")
            #expect(followUp.key == "finish Production \(followUp.subject)")
            #expect(followUp.app == "com.example")
        }
        return Dictionary(uniqueKeysWithValues: made.map { ($0.subject, $0.afterDelivery) })
    }

    @Test func consumablesAndNonConsumablesBoughtRecentlyAndNotRevokedAreFinished() {
        let transactions = [
            Self.transaction("1", "book"), Self.transaction("2", "coins"), Self.transaction("3", "gems"),
            Self.transaction("4", "monthly"), Self.transaction("5", "season"), Self.transaction("6", "unsold"),
            Self.transaction("7", "book", hoursAgo: 73), Self.transaction("8", "coins", revoked: true),
        ]
        #expect(Self.followUps(.recorded, transactions) == ["1": false, "2": false, "3": false])
        // Delivered: what has content waits for its delivery; what has none is finished once recorded.
        #expect(Self.followUps(.delivered, transactions) == ["1": true, "2": false, "3": true])
    }
}
