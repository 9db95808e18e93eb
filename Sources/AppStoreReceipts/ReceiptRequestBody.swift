import Foundation
import GatewayCore

/// The JSON body of verify, restore-sync and receipt downloads:
/// `{"receipt-data": "<base64>", "exclude-old-transactions": false}`.
public struct ReceiptRequestBody: Sendable, Decodable {
    /// The base64 app receipt, when the body has one.
    public let receiptData: String?
    public let excludeOldTransactions: Bool

    enum CodingKeys: String, CodingKey {
        case receiptData = "receipt-data"
        case excludeOldTransactions = "exclude-old-transactions"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptData = try container.decodeIfPresent(String.self, forKey: .receiptData).flatMap { $0.isEmpty ? nil : $0 }
        excludeOldTransactions = try container.decodeIfPresent(Bool.self, forKey: .excludeOldTransactions) ?? false
    }

    /// Reads `request`'s body; nil when it is empty, 400 `bad_request` when it is not such an object.
    public init?(from request: GatewayRequest) throws(GatewayError) {
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
