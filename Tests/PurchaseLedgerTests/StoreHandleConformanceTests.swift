import Foundation
import PurchaseLedger
import Testing

/// Store handles in every ledger: recorded with their batch, once, and found again by store and digest, so a
/// store's "no longer valid" ends the purchase, but never one already cancelled or past its period.
@Suite struct StoreHandleConformance {
    static func handle(_ digest: String, original: String) -> StoreHandle {
        StoreHandle(store: "google-play", handle: digest, environment: "Production", originalTransactionId: original)
    }

    @Test(arguments: LedgerUnderTest.all)
    func aHandleFindsItsPurchaseAndTheStoresEndEndsOnlyWhatStillGrants(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let other = try reopen()
        let now = Date()
        let renewal = now.addingTimeInterval(86_400)
        _ = try ledger.record(
            Sample.batch(
                [
                    Sample.nonConsumable("h-1", original: "h-1"),
                    Sample.period("h-2a", original: "h-2", lineItem: "h-2a", expires: now.addingTimeInterval(-86_400)),
                    Sample.period("h-2b", original: "h-2", lineItem: "h-2b", expires: renewal),
                ],
                handles: [Self.handle("digest-1", original: "h-1"), Self.handle("digest-2", original: "h-2")]))
        _ = try other.record(Sample.batch([], handles: [Self.handle("digest-1", original: "h-1")]))
        let first = LedgerOriginal(environment: "Production", originalTransactionId: "h-1")
        #expect(try other.originals(ofHandle: "digest-1", store: "google-play") == [first])
        #expect(try other.originals(ofHandle: "digest-1", store: "app-store").isEmpty)
        #expect(try other.originals(ofHandle: "digest-unknown", store: "google-play").isEmpty)

        #expect(try other.endPurchases(of: first, at: now, source: .verify) == 1)
        #expect(try ledger.endPurchases(of: first, at: now + 60, source: .verify) == 0, "ended once")
        let ended = try ledger.purchases(environment: "Production", originalTransactionId: "h-1")
        #expect(ended.map { $0.cancellationDate.map { abs($0.timeIntervalSince(now)) < 0.01 } } == [true])

        // A subscription: only the period that still ran is ended; the one that expired stays as it was.
        let second = try #require(try ledger.originals(ofHandle: "digest-2", store: "google-play").first)
        #expect(try ledger.endPurchases(of: second, at: now, source: .download) == 1)
        let periods = try ledger.purchases(environment: "Production", originalTransactionId: "h-2")
        #expect(periods.map { $0.cancellationDate != nil } == [true, false])
        #expect(periods.first?.lastSource == .download)
    }
}
