import Foundation
import GatewayCore

/// The JSON body of verify, restore-sync and receipt downloads:
/// `{"receipt-data": "<base64>", "exclude-old-transactions": false}`, or StoreKit 2's
/// `{"signed-transaction": "<JWS>"}` / `{"signed-transactions": ["<JWS>", ...]}`.
struct PurchaseRequestBody: Sendable, Decodable {
    /// The base64 app receipt, when the body has one.
    let receiptData: String?
    let excludeOldTransactions: Bool
    /// StoreKit 2 signed transactions, when the body has them instead of a receipt.
    let signedTransactions: [String]

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case excludeOldTransactions = "exclude-old-transactions"
        case signedTransaction = "signed-transaction"
        case signedTransactions = "signed-transactions"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptData = try container.decodeIfPresent(String.self, forKey: .receiptData).flatMap { $0.isEmpty ? nil : $0 }
        excludeOldTransactions = try container.decodeIfPresent(Bool.self, forKey: .excludeOldTransactions) ?? false
        signedTransactions =
            try (container.decodeIfPresent([String].self, forKey: .signedTransactions) ?? [])
            + (container.decodeIfPresent(String.self, forKey: .signedTransaction).map { [$0] } ?? [])
    }

    /// Reads `request`'s body; nil when it is empty, 400 `bad_request` when it is not such an object.
    init?(from request: GatewayRequest) throws(GatewayError) {
        guard case .complete(let body) = request.body, !body.isEmpty else { return nil }
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(body))
        } catch {
            throw .badRequest(
                "The body must be a JSON object such as {\"receipt-data\": \"<base64>\", \"exclude-old-transactions\": false}."
            )
        }
    }
}
