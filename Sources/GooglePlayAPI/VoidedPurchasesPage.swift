import Foundation

/// One page of `purchases.voidedpurchases.list`: the purchases Google voided (refunded, charged back, revoked)
/// in a period, and the token of the next page, if any.
package struct VoidedPurchasesPage: Decodable, Sendable, Equatable {
    /// A voided purchase: its token, and when Google voided it.
    package struct Voided: Decodable, Sendable, Equatable {
        package let purchaseToken: String
        package let voidedAt: Date

        enum CodingKeys: String, CodingKey { case purchaseToken, voidedTimeMillis }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            purchaseToken = try container.decode(String.self, forKey: .purchaseToken)
            // int64 as a JSON string, as Google writes it.
            let millis = try container.decode(String.self, forKey: .voidedTimeMillis)
            guard let value = Int64(millis) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .voidedTimeMillis, in: container, debugDescription: "not milliseconds")
            }
            voidedAt = Date(timeIntervalSince1970: Double(value) / 1000)
        }
    }

    package let voided: [Voided]
    package let nextPageToken: String?

    enum CodingKeys: String, CodingKey { case voidedPurchases, tokenPagination }
    enum PageKeys: String, CodingKey { case nextPageToken }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        voided = try container.decodeIfPresent([Voided].self, forKey: .voidedPurchases) ?? []
        let page = try? container.nestedContainer(keyedBy: PageKeys.self, forKey: .tokenPagination)
        nextPageToken = try page?.decodeIfPresent(String.self, forKey: .nextPageToken).flatMap { $0.isEmpty ? nil : $0 }
    }
}
