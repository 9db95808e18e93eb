import Foundation
import GatewayCore

/// The JSON body of verify, restore-sync and receipt downloads:
/// `{"receipt-data": "<base64>", "exclude-old-transactions": false}`, or StoreKit 2's
/// `{"signed-transaction": "<JWS>"}` / `{"signed-transactions": ["<JWS>", ...]}`, or a bare
/// `{"transaction-id": "<id>"}` for a store that can be asked about it.
struct PurchaseRequestBody: Sendable, Equatable, Decodable {
    /// The base64 app receipt, when the body has one.
    let receiptData: String?
    let excludeOldTransactions: Bool
    /// StoreKit 2 signed transactions, when the body has them instead of a receipt.
    let signedTransactions: [String]
    /// A transaction id alone, when the body has one instead.
    let transactionId: String?

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case excludeOldTransactions = "exclude-old-transactions"
        case signedTransaction = "signed-transaction"
        case signedTransactions = "signed-transactions"
        case transactionId = "transaction-id"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptData = try container.decodeIfPresent(String.self, forKey: .receiptData).flatMap { $0.isEmpty ? nil : $0 }
        excludeOldTransactions = try container.decodeIfPresent(Bool.self, forKey: .excludeOldTransactions) ?? false
        signedTransactions =
            try (container.decodeIfPresent([String].self, forKey: .signedTransactions) ?? [])
            + (container.decodeIfPresent(String.self, forKey: .signedTransaction).map { [$0] } ?? [])
        transactionId = try container.decodeIfPresent(String.self, forKey: .transactionId).flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    /// The body read without Foundation; nil when a known member has the wrong type (left to `JSONDecoder`,
    /// which answers what it answers for any body).
    init?(_ body: FlatJSONObject) {
        func string(_ key: CodingKeys) -> String?? {
            switch body.members[key.rawValue] {
            case nil, .null: .some(nil)
            case .string(let text): .some(text)
            default: nil
            }
        }
        guard let receiptData = string(.receiptData), let signedTransaction = string(.signedTransaction),
            let transactionId = string(.transactionId)
        else {
            return nil
        }
        self.transactionId = transactionId.flatMap { $0.isEmpty ? nil : $0 }
        switch body.members[CodingKeys.excludeOldTransactions.rawValue] {
        case nil, .null: excludeOldTransactions = false
        case .bool(let exclude): excludeOldTransactions = exclude
        default: return nil
        }
        switch body.members[CodingKeys.signedTransactions.rawValue] {
        case nil, .null: signedTransactions = signedTransaction.map { [$0] } ?? []
        case .strings(let list): signedTransactions = list + (signedTransaction.map { [$0] } ?? [])
        default: return nil
        }
        self.receiptData = receiptData.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Reads `request`'s body; nil when it is empty, 400 `bad_request` when it is not such an object.
    init?(from request: GatewayRequest) throws(GatewayError) {
        guard case .complete(let body) = request.body, !body.isEmpty else { return nil }
        if let flat = FlatJSONObject(body), let read = Self(flat) {
            self = read
            return
        }
        do {
            self = try JSONDecoder().decode(Self.self, from: Data(body))
        } catch {
            throw .badRequest(
                "The body must be a JSON object such as {\"receipt-data\": \"<base64>\", \"exclude-old-transactions\": false}."
            )
        }
    }
}
