import Foundation

/// The body of Send Consumption Information: what the gateway knows about a purchase whose refund the
/// customer asked for. Apple accepts it only with the customer's consent.
package struct ServerAPIConsumption: Sendable, Equatable {
    /// Apple's `deliveryStatus` values.
    package enum DeliveryStatus: String, Sendable {
        case delivered = "DELIVERED"
        case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
        case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
        case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
        case undeliveredOther = "UNDELIVERED_OTHER"
    }

    /// Apple's `refundPreference` values.
    package enum RefundPreference: String, Sendable {
        case decline = "DECLINE"
        case grantFull = "GRANT_FULL"
        case grantProrated = "GRANT_PRORATED"
    }

    package var customerConsented: Bool
    package var sampleContentProvided: Bool
    package var deliveryStatus: DeliveryStatus
    /// The share consumed, in milliunits (0...100_000).
    package var consumptionPercentage: Int?
    package var refundPreference: RefundPreference?

    package init(
        customerConsented: Bool, sampleContentProvided: Bool, deliveryStatus: DeliveryStatus,
        consumptionPercentage: Int? = nil, refundPreference: RefundPreference? = nil
    ) {
        self.customerConsented = customerConsented
        self.sampleContentProvided = sampleContentProvided
        self.deliveryStatus = deliveryStatus
        self.consumptionPercentage = consumptionPercentage.map { min(max($0, 0), 100_000) }
        self.refundPreference = refundPreference
    }

    /// The JSON Apple expects, keys sorted.
    package var json: [UInt8] {
        var fields: [String: Any] = [
            "customerConsented": customerConsented, "sampleContentProvided": sampleContentProvided,
            "deliveryStatus": deliveryStatus.rawValue,
        ]
        if let consumptionPercentage { fields["consumptionPercentage"] = consumptionPercentage }
        if let refundPreference { fields["refundPreference"] = refundPreference.rawValue }
        return Array((try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data())
    }
}
