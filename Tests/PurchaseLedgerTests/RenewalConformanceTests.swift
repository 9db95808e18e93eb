import Foundation
import PurchaseLedger
import Testing

/// Subscription renewals in every ledger: recorded with their notification, once per signed moment, and read
/// back oldest first with everything the store said.
@Suite struct RenewalConformance {
    static func renewal(original: String, at seconds: Double, autoRenews: Bool = false) -> SubscriptionRenewal {
        SubscriptionRenewal(
            environment: "Production", originalTransactionId: original, productId: "com.example.monthly",
            autoRenewProductId: "com.example.yearly", autoRenews: autoRenews, expirationIntent: autoRenews ? nil : 1,
            inBillingRetry: false, gracePeriodExpires: Date(timeIntervalSince1970: 1_700_100_000),
            priceIncreaseConsented: nil, signedAt: Date(timeIntervalSince1970: 1_700_000_000 + seconds),
            requestId: "r-\(Int(seconds))")
    }

    @Test(arguments: LedgerUnderTest.all)
    func eachSignedRenewalIsKeptOnceWithItsNotification(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let notify = { (uuid: String, renewal: SubscriptionRenewal) in
            try ledger.recordNotification(
                LedgerNotification(
                    uuid: uuid, environment: "Production", type: "DID_CHANGE_RENEWAL_STATUS", subtype: nil,
                    reinstates: false, batch: Sample.batch([], source: .notification), renewal: renewal))
        }
        let later = Self.renewal(original: "80", at: 60, autoRenews: true)
        let first = Self.renewal(original: "80", at: 0)
        #expect(try notify("n-later", later))
        #expect(try notify("n-first", first))
        #expect(try !notify("n-first", first), "a repeated notification records nothing")
        #expect(try notify("n-same", first), "another notification with the same signed renewal keeps it once")
        let kept = try reopen().renewals(environment: "Production", originalTransactionId: "80")
        #expect(kept == [first, later])
        #expect(try ledger.renewals(environment: "Sandbox", originalTransactionId: "80").isEmpty)
        let history = try ledger.history(of: LedgerOriginal(environment: "Production", originalTransactionId: "80"))
        #expect(history.renewals == kept)
    }
}
