import Foundation

/// A one-time product purchase as `purchases.productsv2.getproductpurchasev2` answers it: the fields the
/// gateway reads, typed.
package struct ProductPurchaseV2: Decodable, Sendable, Equatable {
    /// `purchaseStateContext.purchaseState`.
    package enum State: String, Sendable {
        case purchased = "PURCHASED"
        case pending = "PENDING"
        case cancelled = "CANCELLED"
        case unspecified = "PURCHASE_STATE_UNSPECIFIED"
    }

    /// One product of the purchase (`productLineItem`).
    package struct LineItem: Decodable, Sendable, Equatable {
        package let productId: String
        /// `productOfferDetails.quantity`; 1 when Google leaves it out.
        package let quantity: Int
        /// `productOfferDetails.consumptionState` is `CONSUMPTION_STATE_CONSUMED`.
        package let isConsumed: Bool

        enum CodingKeys: String, CodingKey { case productId, productOfferDetails }
        enum OfferKeys: String, CodingKey { case quantity, consumptionState }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            productId = try container.decode(String.self, forKey: .productId)
            let offer = try? container.nestedContainer(keyedBy: OfferKeys.self, forKey: .productOfferDetails)
            quantity = max(1, try offer?.decodeIfPresent(Int.self, forKey: .quantity) ?? 1)
            isConsumed =
                try offer?.decodeIfPresent(String.self, forKey: .consumptionState) == "CONSUMPTION_STATE_CONSUMED"
        }
    }

    package let orderId: String?
    package let state: State
    /// `testPurchaseContext` is present: a license tester's purchase, Google's sandbox.
    package let isTest: Bool
    package let lineItems: [LineItem]
    /// `acknowledgementState` is `ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED`.
    package let isAcknowledged: Bool
    /// The app account the purchase was made for, as the app passed it to Play Billing.
    package let obfuscatedExternalAccountId: String?
    package let purchaseCompletionTime: Date?

    enum CodingKeys: String, CodingKey {
        case orderId, purchaseStateContext, testPurchaseContext, productLineItem, acknowledgementState
        case obfuscatedExternalAccountId, purchaseCompletionTime
    }

    enum StateKeys: String, CodingKey { case purchaseState }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        orderId = try container.decodeIfPresent(String.self, forKey: .orderId).flatMap { $0.isEmpty ? nil : $0 }
        let context = try? container.nestedContainer(keyedBy: StateKeys.self, forKey: .purchaseStateContext)
        let stateName = try context?.decodeIfPresent(String.self, forKey: .purchaseState)
        state = stateName.flatMap(State.init(rawValue:)) ?? .unspecified
        isTest = container.contains(.testPurchaseContext)
        lineItems = try container.decodeIfPresent([LineItem].self, forKey: .productLineItem) ?? []
        isAcknowledged =
            try container.decodeIfPresent(String.self, forKey: .acknowledgementState)
            == "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"
        obfuscatedExternalAccountId = try container.decodeIfPresent(String.self, forKey: .obfuscatedExternalAccountId)
        purchaseCompletionTime = try container.decodeGoogleDate(forKey: .purchaseCompletionTime)
    }
}
