import Foundation
import Synchronization

extension SimServerAPI {
    /// Set App Account Token: every transaction of the purchase `originalTransactionId` carries the token from
    /// now on (in answers and signed payloads). Apple's answers: 200 with no body; 400 4000183 for a token that
    /// is not a UUID, 4000187 for an id that is not an original transaction id, 4000185 for a family member's
    /// access through Family Sharing; 404 4040010 for an unknown one.
    func setAppAccountToken(_ originalTransactionId: String, environment: String, body: [UInt8])
        -> AppStoreSimulator.Answer
    {
        guard let request = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let token = (request["appAccountToken"] as? String).flatMap(UUID.init(uuidString:))
        else { return error(400, 4_000_183, "Invalid request. The app account token field must be a valid UUID.") }
        return state.withLock { state in
            let purchase = state.transactions.indices.filter {
                state.transactions[$0].environment == environment
                    && (state.transactions[$0].originalTransactionId ?? state.transactions[$0].transactionId)
                        == originalTransactionId
            }
            guard !purchase.isEmpty else {
                let known = state.transactions.contains {
                    $0.environment == environment && $0.transactionId == originalTransactionId
                }
                return known
                    ? error(
                        400, 4_000_187,
                        "Invalid request. The transaction ID provided is not an original transaction ID.")
                    : error(404, 4_040_010, "Transaction id not found.")
            }
            if purchase.contains(where: { state.transactions[$0].ownership == "FAMILY_SHARED" }) {
                return error(
                    400, 4_000_185,
                    "Invalid request. The transaction is for a product the customer obtains through Family Sharing.")
            }
            for index in purchase { state.transactions[index].appAccountToken = token.uuidString.lowercased() }
            return AppStoreSimulator.Answer(status: 200)
        }
    }
}
