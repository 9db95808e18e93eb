import Foundation
import PurchaseLedger
import Synchronization
import Testing

/// Consumption requests in every ledger: recorded once with their notification, claimed by one caller at a
/// time across handles (gateways), deferred with their attempts counted, settled once.
@Suite struct ConsumptionRequestConformance {
    static func asking(_ uuid: String, original: String, request: ConsumptionRequest? = nil) -> LedgerNotification {
        LedgerNotification(
            uuid: uuid, environment: "Production", type: "CONSUMPTION_REQUEST", subtype: nil, reinstates: false,
            batch: Sample.batch([Sample.nonConsumable(original, original: original)], source: .notification),
            consumptionRequest: request ?? Sample.consumptionRequest(uuid, original: original))
    }

    /// Each store module claims its own requests only: Apple's responder never sends Google's review to Apple,
    /// and the store's handle for its answer comes back with the claim.
    @Test(arguments: LedgerUnderTest.all)
    func eachStoreClaimsItsOwnRequests(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        let google = Sample.consumptionRequest(
            "google-play:7001", original: "google-play:com.example.reader:GPA.1", store: "google-play",
            app: "com.example.reader", subject: "pending-refund-token")
        #expect(try ledger.recordNotification(Self.asking("google-play:7001", original: "70", request: google)))
        #expect(try ledger.recordNotification(Self.asking("n-apple", original: "71")))
        let now = Date()
        #expect(
            try ledger.claimConsumptionRequests(store: "app-store", now: now, lease: 60, limit: 10).map(
                \.notificationUUID) == ["n-apple"])
        #expect(try ledger.claimConsumptionRequests(store: "google-play", now: now, lease: 60, limit: 10) == [google])
        let stored = try ledger.consumptionRequests(
            environment: "Production", originalTransactionId: "google-play:com.example.reader:GPA.1")
        #expect(stored.map(\.request) == [google])
        // Settled, the store's handle for the answer is not kept.
        #expect(
            try ledger.settleConsumptionRequest(
                "google-play:7001", state: .answered, answer: "{}", outcome: "accepted", at: now))
        let settled = try ledger.consumptionRequests(
            environment: "Production", originalTransactionId: "google-play:com.example.reader:GPA.1")
        #expect(settled.map(\.request.subject) == [nil])
        #expect(settled.map(\.request.app) == ["com.example.reader"])
    }

    @Test(arguments: LedgerUnderTest.all)
    func aRequestIsRecordedOnceAndClaimedByOneCallerAtATime(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let other = try reopen()
        let asking = Self.asking("n-consume", original: "96")
        #expect(try ledger.recordNotification(asking))
        #expect(try other.recordNotification(asking) == false)
        let now = Date()
        let claims = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let claimed =
                (try? (index.isMultiple(of: 2) ? ledger : other).claimConsumptionRequests(
                    store: "app-store", now: now, lease: 60, limit: 10)) ?? []
            claims.withLock { $0 += claimed.map(\.notificationUUID) }
        }
        #expect(claims.withLock { $0 } == ["n-consume"])
        #expect(try other.claimConsumptionRequests(store: "app-store", now: now + 59, lease: 60, limit: 10).isEmpty)
        // The claimer died: its lease ends, and another takes the request over.
        let retaken = try other.claimConsumptionRequests(store: "app-store", now: now + 61, lease: 60, limit: 10)
        #expect(retaken == [asking.consumptionRequest])
    }

    @Test(arguments: LedgerUnderTest.all)
    func aDeferredRequestWaitsForItsAttemptAndIsSettledOnce(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let other = try reopen()
        #expect(try ledger.recordNotification(Self.asking("n-later", original: "97")))
        let now = Date()
        #expect(try ledger.claimConsumptionRequests(store: "app-store", now: now, lease: 60, limit: 10).count == 1)
        try ledger.deferConsumptionRequest("n-later", until: now + 300, outcome: "HTTP 503")
        #expect(try other.claimConsumptionRequests(store: "app-store", now: now + 299, lease: 60, limit: 10).isEmpty)
        let due = try other.claimConsumptionRequests(store: "app-store", now: now + 300, lease: 60, limit: 10)
        #expect(due.map(\.attempts) == [1])
        let answer = #"{"customerConsented":true,"deliveryStatus":"DELIVERED"}"#
        #expect(
            try other.settleConsumptionRequest(
                "n-later", state: .answered, answer: answer, outcome: "HTTP 202", at: now + 301))
        #expect(
            try ledger.settleConsumptionRequest("n-later", state: .unanswered, answer: nil, outcome: "late", at: now)
                == false)
        #expect(
            try ledger.claimConsumptionRequests(store: "app-store", now: now + 86_400, lease: 60, limit: 10).isEmpty)
        let stored = try ledger.consumptionRequests(environment: "Production", originalTransactionId: "97")
        #expect(stored.map(\.state) == [.answered])
        #expect(stored.first?.answer == answer)
        #expect(stored.first?.outcome == "HTTP 202")
        #expect(stored.first?.request.attempts == 2)
        #expect(stored.first?.settledAt.map { abs($0.timeIntervalSince(now + 301)) < 0.01 } == true)
        #expect(try ledger.consumptionRequests(environment: "Sandbox", originalTransactionId: "97").isEmpty)
    }

    @Test(arguments: LedgerUnderTest.all)
    func claimsTakeTheOldestFirstUpToTheLimit(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        for number in 1...3 {
            #expect(try ledger.recordNotification(Self.asking("n-\(number)", original: "8\(number)")))
        }
        let now = Date()
        #expect(try ledger.claimConsumptionRequests(store: "app-store", now: now, lease: 60, limit: 2).count == 2)
        #expect(try ledger.claimConsumptionRequests(store: "app-store", now: now, lease: 60, limit: 2).count == 1)
    }
}
