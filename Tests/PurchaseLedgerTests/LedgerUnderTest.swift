import Foundation
import Testing

@testable import PurchaseLedger

/// A ledger implementation the conformance suite runs against, freshly created per test.
struct LedgerUnderTest: Sendable, CustomTestStringConvertible {
    let name: String
    /// Opens a new empty ledger, and a second handle on the same store (another process's view).
    let open:
        @Sendable () throws -> (any PurchaseLedger & LedgerRowStore, reopen: @Sendable () throws -> any PurchaseLedger)

    var testDescription: String { name }

    static let sqlite = LedgerUnderTest(name: "SQLite") {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString).sqlite")
            .path
        return (try SQLiteLedger(path: path), { try SQLiteLedger(path: path) })
    }

    /// The PostgreSQL server the test command started (`Tests/run.sh` exports its URL).
    static let postgresURL = ProcessInfo.processInfo.environment["STOREGATE_TEST_POSTGRES_URL"]

    /// A URL of the test server scoped to a new, empty schema, so tests never see each other's rows.
    static func freshPostgresURL() throws -> String {
        guard let base = postgresURL else { throw LedgerError.unavailable("STOREGATE_TEST_POSTGRES_URL is not set") }
        let schema = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try PostgresConnection(url: base).execute("CREATE SCHEMA \(schema)")
        return base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    static let postgres = LedgerUnderTest(name: "PostgreSQL") {
        let url = try freshPostgresURL()
        return (try PostgresLedger(url: url, poolSize: 8), { try PostgresLedger(url: url, poolSize: 8) })
    }

    /// Every implementation this build has.
    static let all: [LedgerUnderTest] = [.sqlite, .postgres]
}

/// Builders for conformance batches.
enum Sample {
    static func nonConsumable(_ transactionId: String, original: String, environment: String = "Production")
        -> LedgerTransaction
    {
        LedgerTransaction(
            environment: environment, bundleId: "com.example.magazine", productId: "com.example.issue1",
            transactionId: transactionId, originalTransactionId: original, purchaseKey: .original(original),
            purchaseDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(transactionId.hashValue % 1000))
        )
    }

    static func period(_ transactionId: String, original: String, lineItem: String, expires: Date) -> LedgerTransaction
    {
        LedgerTransaction(
            environment: "Production", bundleId: "com.example.magazine", productId: "com.example.monthly",
            transactionId: transactionId, originalTransactionId: original, webOrderLineItemId: lineItem,
            purchaseKey: .subscriptionPeriod(lineItem), purchaseDate: expires.addingTimeInterval(-30 * 86_400),
            expiresDate: expires
        )
    }

    static func consumable(_ transactionId: String) -> LedgerTransaction {
        LedgerTransaction(
            environment: "Production", bundleId: "com.example.magazine", productId: "com.example.coins",
            transactionId: transactionId, originalTransactionId: transactionId, purchaseKey: .transaction(transactionId)
        )
    }

    static func notification(_ uuid: String, type: String, _ transactions: [LedgerTransaction]) -> LedgerNotification {
        LedgerNotification(
            uuid: uuid, environment: "Production", type: type, subtype: nil, reinstates: type == "REFUND_REVERSED",
            batch: batch(transactions, source: .notification))
    }

    /// `store`'s consumption request about original transaction `original`, asked a minute ago.
    static func consumptionRequest(
        _ uuid: String, original: String, store: String = "app-store", app: String? = nil, subject: String? = nil
    ) -> ConsumptionRequest {
        ConsumptionRequest(
            notificationUUID: uuid, store: store, environment: "Production", transactionId: original,
            originalTransactionId: original, productId: "com.example.issue\(original)",
            requestedAt: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded()), app: app,
            subject: subject)
    }

    static func batch(
        _ transactions: [LedgerTransaction], source: LedgerSource = .verify, followUps: [StoreFollowUp] = [],
        handles: [StoreHandle] = []
    ) -> LedgerBatch {
        LedgerBatch(
            transactions: transactions, source: source, requestId: "test-request", followUps: followUps,
            handles: handles)
    }

    /// A Google acknowledgement (or with `afterDelivery` a consumption) of original transaction `original`,
    /// recorded a minute ago.
    static func followUp(_ action: String, original: String, afterDelivery: Bool = false) -> StoreFollowUp {
        StoreFollowUp(
            key: "\(action) Production \(original)", store: "google-play", action: action, environment: "Production",
            originalTransactionId: original, productId: "com.example.issue1", app: "com.example.reader",
            storeProductId: "issue_1", subject: "token-of-\(original)", afterDelivery: afterDelivery,
            createdAt: Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 60).rounded()))
    }
}
