/// An App Store server notification as the ledger keeps it: recorded once by its UUID, in one transaction
/// with the transactions it reports, so a notification Apple sends again changes nothing.
package struct LedgerNotification: Sendable {
    package let uuid: String
    package let environment: String
    /// `notificationType`, such as `REFUND` or `DID_RENEW`.
    package let type: String
    package let subtype: String?
    /// True for REFUND_REVERSED: the reported purchases are entitled again, so their cancellation is cleared.
    package let reinstates: Bool
    /// True when the store says the subscription it reports has expired (its `purchase.expired` event).
    package let expires: Bool
    /// The transactions it reports (none for a TEST notification).
    package let batch: LedgerBatch
    /// The question it asks, recorded with it (CONSUMPTION_REQUEST).
    package let consumptionRequest: ConsumptionRequest?
    /// How the subscription it is about renews, recorded with it.
    package let renewal: SubscriptionRenewal?

    package init(
        uuid: String, environment: String, type: String, subtype: String?, reinstates: Bool, expires: Bool = false,
        batch: LedgerBatch, consumptionRequest: ConsumptionRequest? = nil, renewal: SubscriptionRenewal? = nil
    ) {
        self.expires = expires
        self.renewal = renewal
        self.uuid = uuid
        self.environment = environment
        self.type = type
        self.subtype = subtype
        self.reinstates = reinstates
        self.batch = batch
        self.consumptionRequest = consumptionRequest
    }

    /// The row of the `notifications` table, in `LedgerTable.notifications` column order.
    func row(receivedMilliseconds: Int64) -> [String?] {
        [
            uuid, environment, type, subtype, String(receivedMilliseconds), batch.requestId,
            consumptionRequest?.originalTransactionId ?? batch.transactions.first?.originalTransactionId, nil,
        ]
    }

    /// The statements run after its transactions are recorded: its reinstatements, then the mark of its
    /// subscription's end (so the `purchase.expired` event it writes follows the events of its transactions).
    func updates(placeholder: (Int) -> String) -> [(sql: String, arguments: [String])] {
        let expiry = "UPDATE notifications SET expired_ms = received_ms WHERE notification_uuid = \(placeholder(1))"
        return reinstatements(placeholder: placeholder) + (expires ? [(expiry, [uuid])] : [])
    }

    /// The statement recording its consumption request, if it asks one.
    func consumptionRequestInsert(placeholder: (Int) -> String) -> (sql: String, arguments: [String?])? {
        consumptionRequest.map { (LedgerTable.consumptionRequests.insertStatement(placeholder: placeholder), $0.row()) }
    }

    /// The statement recording its subscription's renewal, if it tells one.
    func renewalInsert(placeholder: (Int) -> String) -> (sql: String, arguments: [String?])? {
        renewal.map { SubscriptionRenewalTable.insert($0, placeholder: placeholder) }
    }

    /// Statements clearing the cancellation of the reported purchases, and the cancellation and refund of the
    /// reported transactions (REFUND_REVERSED).
    private func reinstatements(placeholder: (Int) -> String) -> [(sql: String, arguments: [String])] {
        guard reinstates else { return [] }
        let (first, second) = (placeholder(1), placeholder(2))
        let purchases = batch.purchases.map { purchase in
            (
                "UPDATE purchases SET cancellation_date_ms = NULL WHERE environment = \(first) AND purchase_key = \(second)",
                [purchase.environment, purchase.purchaseKey.rawValue]
            )
        }
        let transactions = batch.transactions.map { transaction in
            (
                """
                UPDATE transactions SET cancellation_date_ms = NULL, revocation_date_ms = NULL, revocation_type = NULL,
                    revocation_percentage = NULL, revoked_quantity = NULL
                    WHERE environment = \(first) AND transaction_id = \(second)
                """,
                [transaction.environment, transaction.transactionId]
            )
        }
        return purchases + transactions
    }
}
