import AppStoreServerAPI
import ConfigYAML
import Foundation
import GatewayCore
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification
import Testing

@testable import AppStoreReceipts

/// `apple.consumption` (and `refund_requests`, read the same way): Apple's answer built from delivery facts under
/// each refund preference.
@Suite struct ConsumptionPolicyTests {
    static func policy(_ yaml: String) throws -> (Answers?, [String]) {
        let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: [:])
        let apple = reader.scoped("apple")
        let policy = apple.hasSection("consumption") ? RefundRequestPolicy(apple.scoped("consumption")) : nil
        return (policy.map(Answers.init), reader.problems.map { "\($0)" })
    }

    /// Apple's answers under one policy.
    struct Answers {
        let policy: RefundRequestPolicy
        var customerConsented: Bool { policy.customerConsented }
        func information(for facts: DeliveryFacts) -> ServerAPIConsumption {
            ServerAPIBackend.information(for: facts, under: policy)
        }
    }

    static let grant = Delivery(
        environment: "Production", productId: "issue", originalTransactionId: "1", contentSHA256: "", requestId: "r")
    static let read = DeliveryFacts(productId: "issue", hasContent: true, offersSample: true, grants: [grant])
    static let unread = DeliveryFacts(productId: "issue", hasContent: true, offersSample: false, grants: [])
    static let tip = DeliveryFacts(productId: "tip", hasContent: false, offersSample: false, grants: [])

    @Test func eachPreferenceDecidesFromWhatWasDelivered() throws {
        let expected: [(String, ServerAPIConsumption.RefundPreference?, ServerAPIConsumption.RefundPreference?)] = [
            ("none", nil, nil), ("decline-when-delivered", .decline, nil), ("grant-when-undelivered", nil, .grantFull),
            ("by-delivery", .decline, .grantFull),
        ]
        for (name, whenRead, whenUnread) in expected {
            let policy = try #require(
                try Self.policy("apple:\n  consumption: {customer_consented: true, refund_preference: \(name)}").0)
            #expect(policy.information(for: Self.read).refundPreference == whenRead, "\(name)")
            #expect(policy.information(for: Self.unread).refundPreference == whenUnread, "\(name)")
        }
        let policy = try #require(try Self.policy("apple:\n  consumption: {customer_consented: true}").0)
        #expect(
            policy.information(for: Self.read)
                == ServerAPIConsumption(
                    customerConsented: true, sampleContentProvided: true, deliveryStatus: .delivered,
                    consumptionPercentage: 100_000))
        #expect(policy.information(for: Self.unread).deliveryStatus == .undeliveredOther)
        #expect(policy.information(for: Self.unread).consumptionPercentage == 0)
        // A product without content was delivered by its entitlement; there is no share to measure.
        #expect(policy.information(for: Self.tip).deliveryStatus == .delivered)
        #expect(policy.information(for: Self.tip).consumptionPercentage == nil)
    }

    /// `prorated`: nothing delivered is granted in full, a fully delivered issue declined, a subscription (its
    /// share measured by Apple, by time, so no percentage) and a purchase partly delivered granted prorated.
    @Test func proratedGrantsTheShareNotConsumedAndSubscriptionsCarryNoPercentage() throws {
        let policy = try #require(
            try Self.policy("apple:\n  consumption: {customer_consented: true, refund_preference: prorated}").0)
        #expect(policy.information(for: Self.read).refundPreference == .decline)
        #expect(policy.information(for: Self.unread).refundPreference == .grantFull)
        let monthly = DeliveryFacts(
            productId: "monthly", hasContent: true, offersSample: false, grants: [Self.grant], kind: .autoRenewable)
        #expect(
            policy.information(for: monthly)
                == ServerAPIConsumption(
                    customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
                    consumptionPercentage: nil, refundPreference: .grantProrated))
    }

    /// Every download failed on the gateway's side: Apple hears of an outage, not of some other reason.
    @Test func aPurchaseWhoseDownloadsAllFailedIsUndeliveredByAnOutage() throws {
        let policy = try #require(try Self.policy("apple:\n  consumption: {customer_consented: true}").0)
        let failure = DeliveryFailure(
            environment: "Production", productId: "issue", originalTransactionId: "1", requestId: "r", status: 500,
            reason: "not delivered")
        let failed = DeliveryFacts(
            productId: "issue", hasContent: true, offersSample: false, grants: [], failures: [failure])
        #expect(policy.information(for: failed).deliveryStatus == .undeliveredServerOutage)
        // One download that got through is a delivery, whatever failed before it.
        let recovered = DeliveryFacts(
            productId: "issue", hasContent: true, offersSample: false, grants: [Self.grant], failures: [failure])
        #expect(policy.information(for: recovered).deliveryStatus == .delivered)
    }

    @Test func withoutTheSectionNothingIsAnsweredAndAWrongPreferenceIsReported() throws {
        #expect(try Self.policy("apple:\n  bundle_ids: [a]").0 == nil)
        let (shared, _) = try Self.policy("refund_requests: {customer_consented: true}")
        #expect(shared == nil, "refund_requests is read beside the stores' sections, not as apple's")
        let (policy, problems) = try Self.policy("apple:\n  consumption: {refund_preference: always}")
        #expect(policy?.customerConsented == false)
        #expect(problems.contains { $0.contains("apple.consumption.refund_preference") })
    }
}
