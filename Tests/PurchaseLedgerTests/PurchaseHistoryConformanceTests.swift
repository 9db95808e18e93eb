import Foundation
import PurchaseLedger
import Testing

/// Support lookups in every ledger: a transaction id finds its purchase in each environment, and a purchase's
/// history holds its transactions, grants, notifications and consumption requests.
@Suite struct PurchaseHistoryConformance {
    /// Every restore that named a purchase is kept, once per request and oldest first, in its environment.
    @Test(arguments: LedgerUnderTest.all)
    func everyRestoreOfAPurchaseIsKept(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let first = Date(timeIntervalSince1970: 1_700_000_000)
        let restore = { (request: String, at: Date, environment: String) in
            Restore(environment: environment, originalTransactionId: "60", requestId: request, restoredAt: at)
        }
        try ledger.recordRestores([restore("r-1", first, "Production")])
        try ledger.recordRestores([restore("r-1", first, "Production")])  // a retried request
        try ledger.recordRestores([
            restore("r-2", first.addingTimeInterval(60), "Production"), restore("r-3", first, "Sandbox"),
        ])
        try ledger.recordRestores([])
        let kept = try reopen().restores(environment: "Production", originalTransactionId: "60")
        #expect(kept.map(\.requestId) == ["r-1", "r-2"])
        #expect(kept.first?.restoredAt == first)
        #expect(try ledger.restores(environment: "Sandbox", originalTransactionId: "60").map(\.requestId) == ["r-3"])
        let history = try ledger.history(of: LedgerOriginal(environment: "Production", originalTransactionId: "60"))
        #expect(history.restores == kept)
    }

    @Test(arguments: LedgerUnderTest.all)
    func aTransactionIdFindsItsPurchaseAndItsWholeHistory(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("50", original: "50")]))
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("51", original: "50")], source: .restoreSync))
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("51", original: "51", environment: "Sandbox")]))
        try ledger.recordDelivery(
            Delivery(
                environment: "Production", productId: "com.example.issue50", originalTransactionId: "50",
                contentSHA256: String(repeating: "a", count: 64), requestId: "r-download"))
        #expect(try ledger.recordNotification(ConsumptionRequestConformance.asking("n-ask", original: "50")))
        var refunded = Sample.nonConsumable("50", original: "50")
        refunded.cancellationDate = Date()
        #expect(try ledger.recordNotification(Sample.notification("n-refund", type: "REFUND", [refunded])))

        #expect(
            try ledger.originals(of: "51")
                == [
                    LedgerOriginal(environment: "Production", originalTransactionId: "50"),
                    LedgerOriginal(environment: "Sandbox", originalTransactionId: "51"),
                ])
        let production = LedgerOriginal(environment: "Production", originalTransactionId: "50")
        #expect(try ledger.originals(of: "50") == [production])
        #expect(try ledger.originals(of: "99").isEmpty)
        let history = try ledger.history(of: production)
        #expect(history.purchases.count == 1)
        #expect(history.purchases.first?.cancellationDate != nil)
        #expect(Set(history.transactions.map(\.transactionId)) == ["50", "51"])
        #expect(history.transactions.first { $0.transactionId == "51" }?.source == .restoreSync)
        #expect(history.deliveries.map(\.requestId) == ["r-download"])
        #expect(Set(history.notifications.map(\.type)) == ["CONSUMPTION_REQUEST", "REFUND"])
        #expect(history.consumptionRequests.map(\.request.notificationUUID) == ["n-ask"])
        let sandbox = try ledger.history(of: LedgerOriginal(environment: "Sandbox", originalTransactionId: "51"))
        #expect(sandbox.deliveries.isEmpty && sandbox.notifications.isEmpty)
    }

    @Test(arguments: LedgerUnderTest.all)
    func theLastNotificationOrBackfillTellsWhereTheNextBackfillStarts(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        #expect(try ledger.notificationsRecordedUntil() == nil)
        #expect(try ledger.recordNotification(Sample.notification("n-anchor", type: "TEST", [])))
        let received = try #require(try ledger.notificationsRecordedUntil())
        #expect(abs(received.timeIntervalSinceNow) < 60)
        let end = Date().addingTimeInterval(3_600)
        try ledger.recordBackfill(
            BackfillRun(
                trigger: "command", from: received.addingTimeInterval(-86_400), to: end, listed: 2, recorded: 1,
                duplicates: 1, refused: 0))
        let until = try #require(try reopen().notificationsRecordedUntil())
        #expect(abs(until.timeIntervalSince(end)) < 0.01)
    }
}
