import Foundation

/// The support lookups' SQL, the same in both stores but for placeholders, with every column read as text.
enum PurchaseHistoryQueries {
    /// Migration 5: notifications name the purchase they are about, and a transaction id finds its purchase
    /// without knowing its environment.
    static let notificationsByPurchase = """
        ALTER TABLE notifications ADD COLUMN original_transaction_id TEXT;
        CREATE INDEX notifications_by_original ON notifications (environment, original_transaction_id);
        CREATE INDEX transactions_by_id ON transactions (transaction_id);
        CREATE INDEX transactions_by_original ON transactions (original_transaction_id);
        """

    /// Migration 16: a transaction keeps the customer's app transaction, which finds all of their purchases.
    static let appTransactions = """
        ALTER TABLE transactions ADD COLUMN app_transaction_id TEXT;
        ALTER TABLE transactions ADD COLUMN app_transaction_source TEXT;
        CREATE INDEX transactions_by_app_transaction ON transactions (app_transaction_id);
        """

    /// The originals of transaction 1 (also found as an original itself, or as the customer's app transaction).
    static func originals(_ placeholder: (Int) -> String) -> String {
        """
        SELECT DISTINCT environment, original_transaction_id FROM transactions
            WHERE transaction_id = \(placeholder(1)) OR original_transaction_id = \(placeholder(1))
                OR app_transaction_id = \(placeholder(1))
            ORDER BY environment, original_transaction_id
        """
    }

    /// The transactions of environment 1, original 2.
    static func transactions(_ placeholder: (Int) -> String) -> String {
        """
        SELECT transaction_id, product_id, CAST(purchase_date_ms AS TEXT), CAST(expires_date_ms AS TEXT),
            CAST(cancellation_date_ms AS TEXT), CAST(first_seen_ms AS TEXT), source, request_id,
            CAST(quantity AS TEXT), ownership, CAST(revocation_date_ms AS TEXT), revocation_type,
            CAST(revocation_percentage AS TEXT), CAST(revoked_quantity AS TEXT), app_transaction_id
            FROM transactions WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
            ORDER BY coalesce(purchase_date_ms, first_seen_ms), transaction_id
        """
    }

    /// The notifications about environment 1, original 2.
    static func notifications(_ placeholder: (Int) -> String) -> String {
        """
        SELECT notification_uuid, notification_type, subtype, CAST(received_ms AS TEXT), request_id
            FROM notifications WHERE environment = \(placeholder(1)) AND original_transaction_id = \(placeholder(2))
            ORDER BY received_ms, notification_uuid
        """
    }

    static func original(_ row: [String?]) -> LedgerOriginal? {
        guard row.count == 2, let environment = row[0], let id = row[1] else { return nil }
        return LedgerOriginal(environment: environment, originalTransactionId: id)
    }

    static func transaction(_ row: [String?]) -> StoredTransaction? {
        guard row.count == 15, let id = row[0], let product = row[1], let firstSeen = LedgerTime.date(row[5]),
            let requestId = row[7]
        else { return nil }
        let quantity = row[8].flatMap { Int($0) } ?? 1
        return StoredTransaction(
            transactionId: id, productId: product, purchaseDate: LedgerTime.date(row[2]),
            expiresDate: LedgerTime.date(row[3]),
            cancellationDate: LedgerTime.date(row[4]), firstSeen: firstSeen,
            source: row[6].flatMap(LedgerSource.init(rawValue:)) ?? .verify, requestId: requestId, quantity: quantity,
            familyShared: row[9] == LedgerRevocation.familyShared,
            revocation: LedgerTime.date(row[10]).map {
                LedgerRevocation(
                    date: $0, type: row[11], percentageMilliunits: row[12].flatMap { Int($0) },
                    quantity: row[13].flatMap { Int($0) } ?? quantity)
            }, appTransactionId: row[14])
    }

    static func notification(_ row: [String?]) -> StoredNotification? {
        guard row.count == 5, let uuid = row[0], let type = row[1], let received = LedgerTime.date(row[3]),
            let requestId = row[4]
        else { return nil }
        return StoredNotification(uuid: uuid, type: type, subtype: row[2], received: received, requestId: requestId)
    }
}
