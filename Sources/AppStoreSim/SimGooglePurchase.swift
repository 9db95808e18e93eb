import Foundation

/// A purchase Google's stand-in knows, by its purchase token: a one-time product (answered by productsv2) or
/// a subscription (subscriptionsv2), in the state a test sets. Times are seconds from when it was added, so a
/// fixture's answers stay the same.
public struct SimGooglePurchase: Codable, Sendable, Equatable {
    public var token: String
    public var packageName: String
    public var productId: String
    public var subscription = false
    public var orderId: String?
    /// productsv2's `PURCHASED`, `PENDING`, `CANCELLED`; subscriptionsv2's `SUBSCRIPTION_STATE_…` without the
    /// prefix (`ACTIVE`, `EXPIRED`, …). Default: `PURCHASED` / `ACTIVE`.
    public var state: String?
    public var test = false
    public var quantity = 1
    public var accountId: String?
    public var linkedPurchaseToken: String?
    /// A subscription's expiry, in seconds from when the fixture was added (negative: already past).
    public var expiresInS = 30 * 24 * 3600
    public var acknowledged = false
    public var consumed = false
    /// Answer 410 `purchaseTokenNoLongerValid` for this token.
    public var gone = false
    /// When Google voided it (refund, chargeback), in seconds from when the fixture was added: it is listed by
    /// `purchases.voidedpurchases.list` from then on.
    public var voidedAtS: Int?

    enum CodingKeys: String, CodingKey {
        case token, subscription, state, test, quantity, acknowledged, consumed, gone
        case packageName = "package_name"
        case productId = "product_id"
        case orderId = "order_id"
        case accountId = "account_id"
        case linkedPurchaseToken = "linked_purchase_token"
        case expiresInS = "expires_in_s"
        case voidedAtS = "voided_at_s"
    }

    public init(token: String, packageName: String, productId: String, subscription: Bool = false) {
        self.token = token
        self.packageName = packageName
        self.productId = productId
        self.subscription = subscription
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        token = try container.decode(String.self, forKey: .token)
        packageName = try container.decode(String.self, forKey: .packageName)
        productId = try container.decode(String.self, forKey: .productId)
        subscription = try container.decodeIfPresent(Bool.self, forKey: .subscription) ?? false
        orderId = try container.decodeIfPresent(String.self, forKey: .orderId)
        state = try container.decodeIfPresent(String.self, forKey: .state)
        test = try container.decodeIfPresent(Bool.self, forKey: .test) ?? false
        quantity = try container.decodeIfPresent(Int.self, forKey: .quantity) ?? 1
        accountId = try container.decodeIfPresent(String.self, forKey: .accountId)
        linkedPurchaseToken = try container.decodeIfPresent(String.self, forKey: .linkedPurchaseToken)
        expiresInS = try container.decodeIfPresent(Int.self, forKey: .expiresInS) ?? expiresInS
        acknowledged = try container.decodeIfPresent(Bool.self, forKey: .acknowledged) ?? false
        consumed = try container.decodeIfPresent(Bool.self, forKey: .consumed) ?? false
        gone = try container.decodeIfPresent(Bool.self, forKey: .gone) ?? false
        voidedAtS = try container.decodeIfPresent(Int.self, forKey: .voidedAtS)
    }

    /// Google's answer for this purchase, added at `added`.
    func answer(added: Date) -> [String: Any] {
        let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        if subscription {
            var answer: [String: Any] = [
                "kind": "androidpublisher#subscriptionPurchaseV2", "regionCode": "US",
                "subscriptionState": "SUBSCRIPTION_STATE_" + (state ?? "ACTIVE"),
                "startTime": added.addingTimeInterval(-60).formatted(time),
                "acknowledgementState": acknowledged
                    ? "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED" : "ACKNOWLEDGEMENT_STATE_PENDING",
                "lineItems": [
                    [
                        "productId": productId,
                        "expiryTime": added.addingTimeInterval(Double(expiresInS)).formatted(time),
                        "latestSuccessfulOrderId": orderId ?? "GPA.0000-0000-0000-00000",
                        "autoRenewingPlan": ["autoRenewEnabled": state == nil || state == "ACTIVE"],
                        "offerDetails": ["basePlanId": "monthly"],
                    ] as [String: Any]
                ],
            ]
            if test { answer["testPurchase"] = [String: Any]() }
            if let linkedPurchaseToken { answer["linkedPurchaseToken"] = linkedPurchaseToken }
            if let accountId { answer["externalAccountIdentifiers"] = ["obfuscatedExternalAccountId": accountId] }
            return answer
        }
        var answer: [String: Any] = [
            "kind": "androidpublisher#productPurchaseV2", "regionCode": "US",
            "purchaseStateContext": ["purchaseState": state ?? "PURCHASED"],
            "acknowledgementState": acknowledged
                ? "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED" : "ACKNOWLEDGEMENT_STATE_PENDING",
            "productLineItem": [
                [
                    "productId": productId,
                    "productOfferDetails": [
                        "quantity": quantity, "refundableQuantity": quantity, "purchaseOptionId": "buy",
                        "consumptionState": consumed
                            ? "CONSUMPTION_STATE_CONSUMED" : "CONSUMPTION_STATE_YET_TO_BE_CONSUMED",
                    ] as [String: Any],
                ] as [String: Any]
            ],
        ]
        if (state ?? "PURCHASED") == "PURCHASED" { answer["purchaseCompletionTime"] = added.formatted(time) }
        if let orderId { answer["orderId"] = orderId }
        if test { answer["testPurchaseContext"] = ["fopType": "TEST"] }
        if let accountId { answer["obfuscatedExternalAccountId"] = accountId }
        return answer
    }
}
