import Foundation
import PurchaseLedger
import Synchronization
import Testing

/// Store follow-ups in every ledger: recorded with their purchase in its transaction and only once, claimed by
/// one caller at a time across handles (gateways), due after a delivery when they wait for one, deferred with
/// their attempts counted, settled once, counted in the backlog while pending.
@Suite struct StoreFollowUpConformance {
    @Test(arguments: LedgerUnderTest.all)
    func aFollowUpIsRecordedOnceWithItsPurchaseAndClaimedByOneCallerAtATime(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let other = try reopen()
        let acknowledge = Sample.followUp("acknowledge", original: "g-1")
        let batch = Sample.batch([Sample.nonConsumable("g-1", original: "g-1")], followUps: [acknowledge])
        #expect(try ledger.record(batch) == RecordOutcome(recorded: 1, known: 0))
        #expect(try other.record(batch) == RecordOutcome(recorded: 0, known: 1))
        #expect(try ledger.followUps(environment: "Production", originalTransactionId: "g-1").count == 1)

        let now = Date()
        #expect(try ledger.claimFollowUps(store: "app-store", now: now, lease: 60, limit: 10).isEmpty)
        let claims = Mutex<[StoreFollowUp]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let claimed =
                (try? (index.isMultiple(of: 2) ? ledger : other).claimFollowUps(
                    store: "google-play", now: now, lease: 60, limit: 10)) ?? []
            claims.withLock { $0 += claimed }
        }
        #expect(claims.withLock { $0 } == [acknowledge])
        #expect(try other.claimFollowUps(store: "google-play", now: now + 59, lease: 60, limit: 10).isEmpty)
        // The claimer died: its lease ends, and another takes the follow-up over.
        #expect(try other.claimFollowUps(store: "google-play", now: now + 61, lease: 60, limit: 10) == [acknowledge])
    }

    @Test(arguments: LedgerUnderTest.all)
    func aFollowUpAfterDeliveryIsDueOnceTheFirstDeliveryIsRecorded(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let other = try reopen()
        let consume = Sample.followUp("consume", original: "g-2", afterDelivery: true)
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("g-2", original: "g-2")], followUps: [consume]))
        let now = Date()
        #expect(try ledger.claimFollowUps(store: "google-play", now: now + 86_400, lease: 60, limit: 10).isEmpty)
        #expect(try ledger.followUpBacklog(store: "google-play").isEmpty)

        func delivery(of original: String) -> Delivery {
            Delivery(
                environment: "Production", productId: "com.example.issue1", originalTransactionId: original,
                contentSHA256: String(repeating: "a", count: 64), requestId: "r-\(original)", deliveredAt: now)
        }
        #expect(try other.recordDelivery(delivery(of: "g-other")) == false)
        #expect(try other.recordDelivery(delivery(of: "g-2")))
        #expect(try ledger.recordDelivery(delivery(of: "g-2")) == false, "a second download makes nothing due")
        #expect(try ledger.deliveries(environment: "Production", originalTransactionId: "g-2").count == 2)
        let claimed = try ledger.claimFollowUps(store: "google-play", now: now, lease: 60, limit: 10)
        #expect(claimed.map(\.key) == [consume.key])
        #expect(claimed.first?.afterDelivery == true)
    }

    @Test(arguments: LedgerUnderTest.all)
    func aDeferredFollowUpWaitsForItsAttemptAndIsSettledOnce(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let other = try reopen()
        let acknowledge = Sample.followUp("acknowledge", original: "g-3")
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("g-3", original: "g-3")], followUps: [acknowledge]))
        let backlog = try ledger.followUpBacklog(store: "google-play")
        #expect(backlog == [FollowUpBacklog(action: "acknowledge", pending: 1, oldest: acknowledge.createdAt)])

        let now = Date()
        #expect(try ledger.claimFollowUps(store: "google-play", now: now, lease: 60, limit: 10).count == 1)
        try ledger.deferFollowUp(acknowledge.key, until: now + 300, outcome: "Google could not take it: 503")
        #expect(try other.claimFollowUps(store: "google-play", now: now + 299, lease: 60, limit: 10).isEmpty)
        let due = try other.claimFollowUps(store: "google-play", now: now + 300, lease: 60, limit: 10)
        #expect(due.map(\.attempts) == [1])
        #expect(try other.settleFollowUp(acknowledge.key, state: .done, outcome: "Google took it", at: now + 301))
        #expect(
            try ledger.settleFollowUp(acknowledge.key, state: .abandoned, outcome: "late", at: now + 302) == false)
        #expect(try ledger.claimFollowUps(store: "google-play", now: now + 86_400, lease: 60, limit: 10).isEmpty)
        #expect(try ledger.followUpBacklog(store: "google-play").isEmpty)

        let stored = try ledger.followUps(environment: "Production", originalTransactionId: "g-3")
        #expect(stored.map(\.state) == [.done])
        #expect(stored.map(\.outcome) == ["Google took it"])
        #expect(stored.map(\.followUp.attempts) == [2])
        #expect(stored.first?.settledAt.map { abs($0.timeIntervalSince(now + 301)) < 0.01 } == true)
        #expect(try ledger.followUps(environment: "Sandbox", originalTransactionId: "g-3").isEmpty)
    }

    @Test(arguments: LedgerUnderTest.all)
    func claimsStopAtTheirLimitOldestFirst(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        let followUps = (1...3).map { Sample.followUp("acknowledge", original: "g-limit-\($0)") }
        _ = try ledger.record(
            Sample.batch(
                (1...3).map { Sample.nonConsumable("g-limit-\($0)", original: "g-limit-\($0)") },
                followUps: followUps))
        let now = Date()
        #expect(try ledger.claimFollowUps(store: "google-play", now: now, lease: 60, limit: 2).count == 2)
        #expect(try ledger.claimFollowUps(store: "google-play", now: now, lease: 60, limit: 2).count == 1)
    }
}
