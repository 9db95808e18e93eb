import Foundation
import PurchaseLedger
import Testing

/// Failed downloads in every ledger: one per request, kept with their purchase, in its history.
@Suite struct DeliveryFailureConformance {
    static func failure(_ request: String, original: String, at seconds: Double) -> DeliveryFailure {
        DeliveryFailure(
            environment: "Production", productId: "com.example.issue1", originalTransactionId: original,
            requestId: request, status: 500, reason: "not delivered: the file is missing",
            failedAt: Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: LedgerUnderTest.all)
    func eachFailedRequestIsKeptOnceWithItsPurchase(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("70", original: "70")]))
        try ledger.recordDeliveryFailure(Self.failure("r-2", original: "70", at: 1_700_000_060))
        try ledger.recordDeliveryFailure(Self.failure("r-1", original: "70", at: 1_700_000_000))
        // A retried request's failure is kept once.
        try ledger.recordDeliveryFailure(Self.failure("r-1", original: "70", at: 1_700_000_000))
        try ledger.recordDeliveryFailure(Self.failure("r-3", original: "71", at: 1_700_000_000))
        let kept = try reopen().deliveryFailures(environment: "Production", originalTransactionId: "70")
        #expect(
            kept == [
                Self.failure("r-1", original: "70", at: 1_700_000_000),
                Self.failure("r-2", original: "70", at: 1_700_000_060),
            ])
        #expect(try ledger.deliveryFailures(environment: "Sandbox", originalTransactionId: "70").isEmpty)
        let history = try ledger.history(of: LedgerOriginal(environment: "Production", originalTransactionId: "70"))
        #expect(history.deliveryFailures == kept)
    }
}
