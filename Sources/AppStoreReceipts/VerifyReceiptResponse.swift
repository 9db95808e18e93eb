import Foundation
import GatewayHandlerAPI
import PurchaseVerification

/// A verifyReceipt answer, in either generation: iOS 7+ (`receipt.in_app`, `latest_receipt_info` array) or
/// iOS 6 (`receipt` is itself a transaction with `bid`; `latest_receipt_info` and
/// `latest_expired_receipt_info` are single objects).
package struct VerifyReceiptResponse: Sendable, Equatable {
    package let status: Int
    /// Apple's `environment` as sent (unknown values kept), when present.
    package let environment: String?
    /// `is-retryable` / `is_retryable` for statuses 21100-21199.
    package let isRetryable: Bool
    package let bundleId: String?
    /// `latest_receipt_info` ∪ `receipt.in_app` (∪ the iOS 6 fields), one per transaction id (the
    /// `latest_receipt_info` copy wins: it carries renewals and refunds), oldest purchase first.
    package let transactions: [PurchaseTransaction]

    /// Decodes Apple's JSON body; throws when it is not a JSON object with a numeric `status`.
    package init(json: some Collection<UInt8>) throws(AppleResponseError) {
        let root: JSONValue
        do {
            root = try JSONDecoder().decode(JSONValue.self, from: Data(json))
        } catch {
            throw .notJSON
        }
        guard case .object = root, let status = root["status"]?.integer else { throw .noStatus }
        self.status = Int(clamping: status)
        environment = root["environment"]?.text
        isRetryable = (root["is-retryable"] ?? root["is_retryable"])?.bool ?? false
        let receipt = root["receipt"]
        bundleId = (receipt?["bundle_id"] ?? receipt?["bid"])?.text
        var candidates = root["latest_receipt_info"]?.list ?? []
        candidates += root["latest_expired_receipt_info"]?.list ?? []
        candidates += receipt?["in_app"]?.list ?? []
        if let receipt, receipt["transaction_id"] != nil { candidates.append(receipt) }
        var seen = Set<String>()
        transactions = candidates.compactMap { PurchaseTransaction(receiptFields: $0) }
            .filter { seen.insert($0.transactionId).inserted }
            .sorted {
                ($0.purchaseDate ?? .distantPast, $0.transactionId) < (
                    $1.purchaseDate ?? .distantPast, $1.transactionId
                )
            }
    }
}

/// Apple's body could not be read as a verifyReceipt answer.
package enum AppleResponseError: Error, Sendable, Equatable {
    case notJSON
    case noStatus
}
