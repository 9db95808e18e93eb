import Foundation

/// Renders a fixture receipt as Apple's verifyReceipt renders a valid one: strings for ids and numbers
/// (unless the fixture asks for type drift), `*_date`, `*_date_ms` and `*_date_pst` triples, and either the
/// modern or the iOS 6 shape.
struct AppleAnswerRenderer {
    let fixture: SimReceipt
    let receiptData: String
    /// What the fixture's relative dates count from.
    let epoch: Date
    /// The time of the request.
    let now: Date

    func render() -> [UInt8] {
        let body = fixture.shape == "ios6" ? ios6() : modern()
        // Plain JSON values always serialise.
        return Array((try? JSONSerialization.data(withJSONObject: body, options: [.withoutEscapingSlashes])) ?? Data())
    }

    private func modern() -> [String: Any] {
        var inApp: [[String: Any]] = []
        var latest: [[String: Any]] = []
        for transaction in fixture.transactions {
            let fields = self.fields(transaction)
            let place = transaction.listedIn ?? (transaction.webOrderLineItemId == nil ? "receipt" : "both")
            if place == "receipt" || place == "both" { inApp.append(fields) }
            if place == "latest" || place == "both" { latest.append(fields) }
        }
        var receipt: [String: Any] = [
            "receipt_type": fixture.environment == "Sandbox" ? "ProductionSandbox" : "Production",
            "adam_id": number(fixture.environment == "Sandbox" ? 0 : 1_234_567_890),
            "app_item_id": number(fixture.environment == "Sandbox" ? 0 : 1_234_567_890),
            "bundle_id": fixture.bundleId,
            "application_version": "1",
            "download_id": number(0),
            "version_external_identifier": number(0),
            "original_application_version": "1.0",
            "in_app": inApp,
        ]
        addDate("receipt_creation_date", epoch, to: &receipt)
        addDate("request_date", now, to: &receipt)
        addDate("original_purchase_date", epoch.addingTimeInterval(-86_400 * 400), to: &receipt)
        var answer: [String: Any] = ["status": 0, "environment": fixture.environment, "receipt": receipt]
        if !latest.isEmpty {
            answer["latest_receipt_info"] = fixture.latestAsObject ? latest[latest.count - 1] : latest
            answer["latest_receipt"] = receiptData
            answer["pending_renewal_info"] = latest.map { entry in
                [
                    "auto_renew_product_id": entry["product_id"] ?? "",
                    "product_id": entry["product_id"] ?? "",
                    "original_transaction_id": entry["original_transaction_id"] ?? "",
                    "auto_renew_status": "1",
                ]
            }
        }
        return answer
    }

    /// iOS 6: the receipt is the (first) transaction itself with `bid`; an expired subscription is 21006
    /// with `latest_expired_receipt_info`, an active one 0 with `latest_receipt_info`, both single objects.
    private func ios6() -> [String: Any] {
        guard let first = fixture.transactions.first else { return ["status": 21003] }
        var receipt = fields(first)
        receipt["bid"] = fixture.bundleId
        receipt["bvrs"] = "1.0"
        if let expires = first.expires.flatMap({ SimDate.resolve($0, now: epoch) }) {
            receipt["expires_date"] = String(SimDate.milliseconds(expires))
            receipt["expires_date_formatted"] = SimDate.appleGMT(expires)
            receipt["expires_date_ms"] = nil
            receipt["expires_date_pst"] = nil
        }
        let latest = fixture.transactions.last.map(fields) ?? receipt
        let expired = first.expires.flatMap { SimDate.resolve($0, now: epoch) }.map { $0 <= now } ?? false
        return [
            "status": expired ? 21006 : 0,
            "receipt": receipt,
            expired ? "latest_expired_receipt_info" : "latest_receipt_info": latest,
        ]
    }

    private func fields(_ transaction: SimTransaction) -> [String: Any] {
        var fields: [String: Any] = [
            "quantity": number(Int64(transaction.quantity)),
            "product_id": transaction.productId,
            "transaction_id": id(transaction.transactionId),
            "original_transaction_id": id(transaction.originalTransactionId ?? transaction.transactionId),
            "is_trial_period": fixture.numbers ? false : "false" as Any,
            "in_app_ownership_type": "PURCHASED",
        ]
        if let lineItem = transaction.webOrderLineItemId { fields["web_order_line_item_id"] = id(lineItem) }
        let purchase = SimDate.resolve(transaction.purchase, now: epoch) ?? now
        addDate("purchase_date", purchase, to: &fields)
        addDate("original_purchase_date", purchase, to: &fields)
        if let expires = transaction.expires.flatMap({ SimDate.resolve($0, now: epoch) }) {
            addDate("expires_date", expires, to: &fields)
        }
        if let cancelled = transaction.cancelled.flatMap({ SimDate.resolve($0, now: epoch) }) {
            addDate("cancellation_date", cancelled, to: &fields)
            fields["cancellation_reason"] = fixture.numbers ? 0 : "0" as Any
        }
        return fields
    }

    private func addDate(_ name: String, _ date: Date, to fields: inout [String: Any]) {
        fields[name] = SimDate.appleGMT(date)
        fields["\(name)_ms"] = number(SimDate.milliseconds(date))
        fields["\(name)_pst"] = SimDate.applePST(date)
    }

    /// Apple sends numbers as strings; type-drifted fixtures send JSON numbers.
    private func number(_ value: Int64) -> Any { fixture.numbers ? value : String(value) }

    private func id(_ text: String) -> Any { fixture.numbers ? (Int64(text).map { $0 as Any } ?? text) : text }
}
