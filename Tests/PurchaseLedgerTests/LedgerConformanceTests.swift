import Foundation
import PurchaseLedger
import Synchronization
import Testing

/// The contract of `PurchaseLedger`, run against every implementation.
@Suite struct LedgerConformance {
    @Test(arguments: LedgerUnderTest.all)
    func recordsNewPurchasesAndKnowsThemTheSecondTime(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        let batch = Sample.batch([
            Sample.nonConsumable("1", original: "1"),
            Sample.period("2", original: "2", lineItem: "L2", expires: Date().addingTimeInterval(86_400)),
            Sample.consumable("3"),
        ])
        #expect(try ledger.record(batch) == RecordOutcome(recorded: 3, known: 0))
        #expect(try ledger.record(batch) == RecordOutcome(recorded: 0, known: 3))
        #expect(try ledger.counts() == LedgerCounts(purchases: 3, transactions: 3))
    }

    @Test(arguments: LedgerUnderTest.all)
    func aRestoredNonConsumableIsOneKnownPurchaseWithANewTransaction(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("10", original: "10")]))
        let restore = Sample.batch([Sample.nonConsumable("11", original: "10")], source: .restoreSync)
        #expect(try ledger.record(restore) == RecordOutcome(recorded: 0, known: 1))
        #expect(try ledger.counts() == LedgerCounts(purchases: 1, transactions: 2))
        let purchase = try #require(try ledger.purchases(environment: "Production", originalTransactionId: "10").first)
        #expect(purchase.purchaseKey == .original("10"))
        #expect(purchase.firstSource == .verify)
        #expect(purchase.lastSource == .restoreSync)
        #expect(purchase.lastSeen >= purchase.firstSeen)
    }

    @Test(arguments: LedgerUnderTest.all)
    func subscriptionPeriodsAndConsumablesArePurchasesOfTheirOwn(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        let now = Date()
        let outcome = try ledger.record(
            Sample.batch([
                Sample.period("20", original: "20", lineItem: "L20", expires: now.addingTimeInterval(-86_400)),
                Sample.period("21", original: "20", lineItem: "L21", expires: now.addingTimeInterval(29 * 86_400)),
                Sample.consumable("22"), Sample.consumable("23"),
            ]))
        #expect(outcome == RecordOutcome(recorded: 4, known: 0))
        let periods = try ledger.purchases(environment: "Production", originalTransactionId: "20")
        #expect(periods.map(\.purchaseKey) == [.subscriptionPeriod("L21"), .subscriptionPeriod("L20")])
    }

    @Test(arguments: LedgerUnderTest.all)
    func environmentsNeverMix(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("30", original: "30")]))
        let sandbox = try ledger.record(
            Sample.batch([Sample.nonConsumable("30", original: "30", environment: "Sandbox")]))
        #expect(sandbox == RecordOutcome(recorded: 1, known: 0))
        #expect(try ledger.purchases(environment: "Sandbox", originalTransactionId: "30").count == 1)
    }

    @Test(arguments: LedgerUnderTest.all)
    func aCancellationOnceSeenIsKeptAndExpiryOnlyGrows(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        var refunded = Sample.nonConsumable("40", original: "40")
        refunded.cancellationDate = Date(timeIntervalSince1970: 1_750_000_000)
        _ = try ledger.record(Sample.batch([refunded]))
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("40", original: "40")]))
        let purchase = try #require(try ledger.purchases(environment: "Production", originalTransactionId: "40").first)
        #expect(purchase.cancellationDate == Date(timeIntervalSince1970: 1_750_000_000))

        let later = Date(timeIntervalSince1970: 1_800_000_000)
        _ = try ledger.record(Sample.batch([Sample.period("41", original: "41", lineItem: "L41", expires: later)]))
        _ = try ledger.record(
            Sample.batch([Sample.period("41", original: "41", lineItem: "L41", expires: later.addingTimeInterval(-10))])
        )
        #expect(
            try ledger.purchases(environment: "Production", originalTransactionId: "41").first?.expiresDate == later)
    }

    @Test(arguments: LedgerUnderTest.all)
    func committedBatchesAreSeenByAnotherHandle(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("50", original: "50"), Sample.consumable("51")]))
        #expect(try reopen().counts() == LedgerCounts(purchases: 2, transactions: 2))
    }

    @Test(arguments: LedgerUnderTest.all)
    func concurrentRecordersOfTheSamePurchasesMakeOneRowEach(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let second = try reopen()
        let batch = Sample.batch((0..<50).map { Sample.nonConsumable("6\($0)", original: "6\($0)") })
        let recorded = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let outcome = try? (index.isMultiple(of: 2) ? ledger : second).record(batch)
            recorded.withLock { $0 += outcome?.recorded ?? -1_000 }
        }
        // Each purchase is new to exactly one of the sixteen writers.
        #expect(recorded.withLock { $0 } == 50)
        #expect(try ledger.counts() == LedgerCounts(purchases: 50, transactions: 50))
    }

    @Test(arguments: LedgerUnderTest.all)
    func aNotificationIsRecordedOnceWithItsTransaction(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("90", original: "90")]))
        var refunded = Sample.nonConsumable("90", original: "90")
        refunded.cancellationDate = Date(timeIntervalSince1970: 1_800_000_000)
        let refund = Sample.notification("n-refund", type: "REFUND", [refunded])
        #expect(try ledger.recordNotification(refund))
        #expect(try reopen().recordNotification(refund) == false)
        let purchase = try #require(try ledger.purchases(environment: "Production", originalTransactionId: "90").first)
        #expect(purchase.cancellationDate == refunded.cancellationDate)
        #expect(purchase.lastSource == .notification)

        let reversal = Sample.notification(
            "n-reversed", type: "REFUND_REVERSED", [Sample.nonConsumable("90", original: "90")])
        #expect(try ledger.recordNotification(reversal))
        #expect(
            try ledger.purchases(environment: "Production", originalTransactionId: "90").first?.cancellationDate == nil)
        // A repeat of the refund is still a repeat: the reversal stands.
        #expect(try ledger.recordNotification(refund) == false)
        #expect(
            try ledger.purchases(environment: "Production", originalTransactionId: "90").first?.cancellationDate == nil)
        #expect(try ledger.counts() == LedgerCounts(purchases: 1, transactions: 1))
    }

    @Test(arguments: LedgerUnderTest.all)
    func concurrentDeliveriesOfOneNotificationApplyOnce(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let second = try reopen()
        let renewal = Sample.notification(
            "n-renew", type: "DID_RENEW",
            [Sample.period("95", original: "94", lineItem: "L95", expires: Date().addingTimeInterval(86_400))])
        let applied = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            if (try? (index.isMultiple(of: 2) ? ledger : second).recordNotification(renewal)) == true {
                applied.withLock { $0 += 1 }
            }
        }
        #expect(applied.withLock { $0 } == 1)
        #expect(try ledger.counts() == LedgerCounts(purchases: 1, transactions: 1))
    }

    @Test(arguments: LedgerUnderTest.all)
    func aRestoreOfThousandsIsRecordedWhole(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        let transactions = (0..<2_500).map { Sample.consumable("8\($0)") } + [Sample.nonConsumable("9", original: "9")]
        #expect(try ledger.record(Sample.batch(transactions)) == RecordOutcome(recorded: 2_501, known: 0))
        #expect(try ledger.record(Sample.batch(transactions.reversed())) == RecordOutcome(recorded: 0, known: 2_501))
        #expect(try ledger.counts() == LedgerCounts(purchases: 2_501, transactions: 2_501))
    }

    @Test(arguments: LedgerUnderTest.all)
    func batchesSharingPurchasesInOppositeOrdersNeverDeadlock(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let second = try reopen()
        let purchases = (0..<400).map { Sample.nonConsumable("7\($0)", original: "7\($0)") }
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            let order = index.isMultiple(of: 2) ? purchases : purchases.reversed()
            for _ in 0..<3 where (try? (index < 8 ? ledger : second).record(Sample.batch(order))) == nil {
                failures.withLock { $0 += 1 }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(try ledger.counts() == LedgerCounts(purchases: 400, transactions: 400))
    }

    @Test(arguments: LedgerUnderTest.all)
    func aBatchRepeatingATransactionCountsItsPurchaseOnce(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        let outcome = try ledger.record(
            Sample.batch([
                Sample.nonConsumable("70", original: "70"), Sample.nonConsumable("71", original: "70"),
                Sample.nonConsumable("70", original: "70"),
            ]))
        #expect(outcome == RecordOutcome(recorded: 1, known: 0))
        #expect(try ledger.counts() == LedgerCounts(purchases: 1, transactions: 2))
        #expect(try ledger.purchases(environment: "Production", originalTransactionId: "70").count == 1)
    }

    @Test(arguments: LedgerUnderTest.all)
    func anEmptyBatchChangesNothing(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        #expect(try ledger.record(Sample.batch([])) == RecordOutcome(recorded: 0, known: 0))
        try ledger.checkHealth()
    }

    @Test(arguments: LedgerUnderTest.all)
    func deliveriesAreRecordedInOrder(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        for request in ["r1", "r2"] {
            try ledger.recordDelivery(
                Delivery(
                    environment: "Production", productId: "com.example.issue1", originalTransactionId: "80",
                    contentSHA256: "ab", requestId: request, deliveredAt: Date(timeIntervalSince1970: 1_700_000_000)))
        }
        let deliveries = try reopen().deliveries(environment: "Production", originalTransactionId: "80")
        #expect(deliveries.map(\.requestId) == ["r1", "r2"])
        #expect(deliveries.first?.deliveredAt == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(try ledger.deliveries(environment: "Sandbox", originalTransactionId: "80").isEmpty)
    }
}
