import Foundation

/// The body of `orders.reviewrefund` (Google's `OrdersReviewRefundRequest`): what the developer tells Google of an
/// order whose refund a customer asked for, within 24 hours of the pending refund review notification.
package struct RefundReview: Sendable, Equatable {
    /// `refundPreference`, which Google requires.
    package enum Preference: String, Sendable {
        case decline = "DECLINE"
        case approve = "APPROVE"
        case neutral = "NEUTRAL"
    }

    /// One `ConsumptionUsageEvent`: a time the customer got or used the content.
    package struct UsageEvent: Sendable, Equatable {
        package let time: Date
        /// `consumptionItemDescription` (Google takes up to 5000 characters).
        package let description: String

        package init(time: Date, description: String) {
            self.time = time
            self.description = description
        }
    }

    /// Google's handle for the review, from the notification: sent, never recorded or shown.
    package let pendingRefundToken: String
    package let sampleContentProvided: Bool
    package let refundPreference: Preference
    /// How much of the purchase was consumed, 0…100000; nil for a product with nothing to measure.
    package let consumptionPercentageMilliunits: Int?
    /// At most 1000, as Google takes (the latest kept).
    package let usageEvents: [UsageEvent]

    package init(
        pendingRefundToken: String, sampleContentProvided: Bool, refundPreference: Preference,
        consumptionPercentageMilliunits: Int?, usageEvents: [UsageEvent]
    ) {
        self.pendingRefundToken = pendingRefundToken
        self.sampleContentProvided = sampleContentProvided
        self.refundPreference = refundPreference
        self.consumptionPercentageMilliunits = consumptionPercentageMilliunits.map { min(max($0, 0), 100_000) }
        self.usageEvents = Array(usageEvents.suffix(1000))
    }

    /// The body sent to Google.
    package var json: [UInt8] { Self.encoded(fields(withToken: true)) }

    /// The body as the ledger records it and support sees it: all of it but the pending refund token.
    package var recordedJSON: String { String(decoding: Self.encoded(fields(withToken: false)), as: UTF8.self) }

    private func fields(withToken: Bool) -> [String: Any] {
        var fields: [String: Any] = [
            "sampleContentProvided": sampleContentProvided, "refundPreference": refundPreference.rawValue,
        ]
        if withToken { fields["pendingRefundToken"] = pendingRefundToken }
        if let consumptionPercentageMilliunits {
            fields["consumptionPercentageMilliunits"] = consumptionPercentageMilliunits
        }
        if !usageEvents.isEmpty {
            fields["consumptionUsageEvents"] = usageEvents.map { event in
                [
                    "consumptionTime": Self.time.format(event.time),
                    "consumptionItemDescription": String(event.description.prefix(5000)),
                ]
            }
        }
        return fields
    }

    /// Google's `google-datetime`: RFC 3339 in UTC.
    private static let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    private static func encoded(_ fields: [String: Any]) -> [UInt8] {
        Array((try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8))
    }
}
