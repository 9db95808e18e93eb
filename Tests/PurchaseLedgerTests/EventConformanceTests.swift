import Foundation
import GRDB
import Synchronization
import Testing

@testable import PurchaseLedger

/// The outbox in every ledger: each committed change writes its events in its own transaction (and a change
/// rolled back writes none), each event gets a delivery per configured endpoint that takes it, one purchase's
/// deliveries are claimed in order and by one caller at a time, replays send again under the same ids.
@Suite struct EventConformance {
    private static let everything = EventSubscription(endpoint: "backend", types: nil, environments: nil)

    @Test(arguments: LedgerUnderTest.all)
    func everyKindOfChangeWritesItsEventOnceWithItsFacts(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        try ledger.configureEventEndpoints([Self.everything], at: Date())
        let bought = Date(timeIntervalSince1970: 1_764_385_865.123)
        var issue = Sample.nonConsumable("e-1", original: "e-1")
        issue.purchaseDate = bought
        let acknowledge = Sample.followUp("acknowledge", original: "e-1")
        _ = try ledger.record(Sample.batch([issue], followUps: [acknowledge]))
        _ = try ledger.record(Sample.batch([issue]))
        #expect(try types(ledger, "e-1") == ["purchase.recorded"], "a purchase seen again changes nothing")

        _ = try ledger.claim(
            AccountClaim(
                environment: "Production", originalTransactionId: "e-1", productId: "com.example.issue1",
                accountId: "reader-7", policy: .keep, requestId: "r-claim"))
        try ledger.recordDelivery(
            Delivery(
                environment: "Production", productId: "com.example.issue1", originalTransactionId: "e-1",
                contentSHA256: String(repeating: "b", count: 64), requestId: "r-download", deliveredAt: Date()))
        _ = try ledger.settleFollowUp(acknowledge.key, state: .done, outcome: "Google took it", at: Date())
        var refunded = issue
        refunded.cancellationDate = bought + 86_400
        refunded.revocation = LedgerRevocation(
            date: bought + 86_400, type: "REFUND_FULL", percentageMilliunits: nil, quantity: 1)
        #expect(try ledger.recordNotification(Sample.notification("n-refund", type: "REFUND", [refunded])))
        #expect(try ledger.recordNotification(Sample.notification("n-refund", type: "REFUND", [refunded])) == false)
        #expect(try ledger.recordNotification(Sample.notification("n-back", type: "REFUND_REVERSED", [issue])))

        let events = try ledger.events(environment: "Production", originalTransactionId: "e-1")
        #expect(
            events.map(\.type) == [
                "purchase.recorded", "account.binding_changed", "content.delivered", "store_follow_up.done",
                "purchase.revoked", "purchase.reinstated",
            ])
        #expect(events.map(\.sequence) == events.map(\.sequence).sorted())
        #expect(Set(events.map(\.id)).count == events.count)
        #expect(events.allSatisfy { $0.id.hasPrefix("evt_") && $0.id.count == 36 })
        #expect(events.map(\.productId) == Array(repeating: "com.example.issue1", count: 6))
        #expect(events.map(\.accountId) == [nil] + Array(repeating: "reader-7", count: 5))
        let facts = try events.map(Self.facts)
        #expect(facts[0]["purchase_date"] as? String == "2025-11-29T03:11:05.123Z")
        #expect(facts[0]["transaction_id"] as? String == "e-1")
        #expect(facts[0]["source"] as? String == "verify")
        #expect(facts[1]["change"] as? String == "bound")
        #expect(facts[2]["request_id"] as? String == "r-download")
        #expect(facts[3]["action"] as? String == "acknowledge")
        #expect(facts[4]["reason"] as? String == "REFUND_FULL")
        #expect(facts[4]["revocation_date"] as? String == "2025-11-30T03:11:05.123Z")
        #expect(facts[4]["source"] as? String == "notification")
    }

    @Test(arguments: LedgerUnderTest.all)
    func renewalsExpiriesAndRefundRequestsWriteTheirEvents(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        let expires = Date(timeIntervalSince1970: 1_764_000_000)
        let first = Sample.period("s-1", original: "s-1", lineItem: "w-1", expires: expires)
        let second = Sample.period("s-2", original: "s-1", lineItem: "w-2", expires: expires + 30 * 86_400)
        _ = try ledger.record(Sample.batch([first]))
        #expect(try ledger.recordNotification(Sample.notification("n-renew", type: "DID_RENEW", [second])))
        let expiry = LedgerNotification(
            uuid: "n-expired", environment: "Production", type: "EXPIRED", subtype: "VOLUNTARY", reinstates: false,
            expires: true, batch: Sample.batch([second], source: .notification))
        #expect(try ledger.recordNotification(expiry))
        let request = Sample.consumptionRequest("n-ask", original: "s-1")
        #expect(
            try ledger.recordNotification(
                LedgerNotification(
                    uuid: "n-ask", environment: "Production", type: "CONSUMPTION_REQUEST", subtype: nil,
                    reinstates: false, batch: Sample.batch([], source: .notification), consumptionRequest: request)))
        #expect(
            try ledger.settleConsumptionRequest(
                "n-ask", state: .answered, answer: "{}", outcome: "Apple took it", at: Date()))

        let events = try ledger.events(environment: "Production", originalTransactionId: "s-1")
        #expect(
            events.map(\.type) == [
                "purchase.recorded", "purchase.renewed", "purchase.expired", "refund_request.answered",
            ])
        let facts = try events.map(Self.facts)
        #expect(facts[2]["subtype"] as? String == "VOLUNTARY")
        #expect(facts[2]["expires_date"] as? String == "2025-12-24T16:00:00.000Z")
        #expect(facts[3]["outcome"] as? String == "Apple took it")
        #expect(try ledger.eventBacklog().isEmpty, "no endpoint was configured, so nothing waits for delivery")
    }

    @Test(arguments: LedgerUnderTest.all)
    func aPartRefundAndItsReversalWriteTheirEvents(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        var pack = Sample.consumable("c-80")
        pack.quantity = 4
        _ = try ledger.record(Sample.batch([pack]))
        pack.revocation = LedgerRevocation(
            date: Date(timeIntervalSince1970: 1_764_385_865), type: "REFUND_PRORATED", percentageMilliunits: 50_000,
            quantity: 2)
        #expect(try ledger.recordNotification(Sample.notification("n-c80", type: "REFUND", [pack])))
        pack.revocation = nil
        _ = try ledger.record(Sample.batch([pack]))
        #expect(try ledger.recordNotification(Sample.notification("n-c81", type: "REFUND_REVERSED", [pack])))
        let events = try ledger.events(environment: "Production", originalTransactionId: "c-80")
        #expect(events.map(\.type) == ["purchase.recorded", "purchase.partially_revoked", "purchase.reinstated"])
        let facts = try Self.facts(events[1])
        #expect(facts["revoked_quantity"] as? Int == 2)
        #expect(facts["quantity"] as? Int == 4)
        #expect(facts["revocation_percentage"] as? Int == 50_000)
        #expect(facts["reason"] as? String == "REFUND_PRORATED")
    }

    @Test(arguments: LedgerUnderTest.all)
    func aChangeThatRollsBackWritesNoEvent(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        try ledger.configureEventEndpoints([Self.everything], at: Date())
        // The store follow-up is written after the purchase, in the same transaction; refusing it rolls back both.
        try Self.execute(
            on: ledger,
            sqlite: """
                CREATE TRIGGER refuse BEFORE INSERT ON store_follow_ups BEGIN SELECT RAISE(ABORT, 'refused'); END
                """,
            postgres: """
                CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN RAISE EXCEPTION 'refused'; END $$;
                CREATE TRIGGER refuse BEFORE INSERT ON store_follow_ups FOR EACH ROW EXECUTE FUNCTION refuse();
                """)
        #expect(throws: LedgerError.self) {
            try ledger.record(
                Sample.batch(
                    [Sample.nonConsumable("r-1", original: "r-1")],
                    followUps: [Sample.followUp("acknowledge", original: "r-1")]))
        }
        #expect(try ledger.purchases(environment: "Production", originalTransactionId: "r-1").isEmpty)
        #expect(try ledger.events(since: .distantPast, after: 0, limit: 10).isEmpty)
        #expect(try ledger.claimEventDeliveries(endpoint: "backend", now: Date(), lease: 60, limit: 8).isEmpty)
    }

    @Test(arguments: LedgerUnderTest.all)
    func onePurchasesEventsAreClaimedInOrderAndByOneCallerAtATime(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let other = try reopen()
        try ledger.configureEventEndpoints(
            [Self.everything, EventSubscription(endpoint: "audit", types: ["purchase.revoked"], environments: nil)],
            at: Date())
        let a = Sample.nonConsumable("o-a", original: "o-a")
        var refunded = a
        refunded.cancellationDate = Date()
        _ = try ledger.record(Sample.batch([a]))
        _ = try ledger.recordNotification(Sample.notification("n-o", type: "REFUND", [refunded]))
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("o-b", original: "o-b")]))

        let now = Date() + 1
        let claims = Mutex<[[EventDeliveryClaim]]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { index in
            let claimed = try? (index.isMultiple(of: 2) ? ledger : other).claimEventDeliveries(
                endpoint: "backend", now: now, lease: 60, limit: 8)
            claims.withLock { $0.append(claimed ?? []) }
        }
        let won = claims.withLock { $0 }.filter { !$0.isEmpty }
        #expect(won.count == 1, "one caller claims the run; the others find it held")
        let claimed = won.first ?? []
        #expect(
            claimed.map { "\($0.event.originalTransactionId) \($0.event.type)" } == [
                "o-a purchase.recorded", "o-a purchase.revoked", "o-b purchase.recorded",
            ], "in order")
        #expect(try other.claimEventDeliveries(endpoint: "backend", now: now + 59, lease: 60, limit: 8).isEmpty)
        // The purchase's first event failed: its refund is given back untried and waits behind it.
        try ledger.deferEventDelivery(claimed[0], until: now + 300, outcome: "the receiver answered 503")
        try ledger.releaseEventDelivery(claimed[1])
        try ledger.settleEventDelivery(claimed[2], as: .delivered, outcome: "delivered", at: now)
        #expect(try other.claimEventDeliveries(endpoint: "backend", now: now + 299, lease: 60, limit: 8).isEmpty)
        let first = try other.claimEventDeliveries(endpoint: "backend", now: now + 300, lease: 60, limit: 1)
        #expect(first.map(\.event) == [claimed[0].event])
        #expect(first.map(\.attempts) == [1])
        #expect(
            try ledger.claimEventDeliveries(endpoint: "backend", now: now + 300, lease: 60, limit: 8).isEmpty,
            "the refund waits while another caller holds the purchase before it")
        try other.settleEventDelivery(first[0], as: .delivered, outcome: "delivered", at: now + 301)
        let refund = try #require(
            try ledger.claimEventDeliveries(endpoint: "backend", now: now + 302, lease: 60, limit: 8).first)
        #expect(refund.event == claimed[1].event)
        #expect(refund.attempts == 0)

        let audit = try #require(
            try ledger.claimEventDeliveries(endpoint: "audit", now: now, lease: 60, limit: 8).first)
        #expect(audit.event == refund.event, "an endpoint takes the types it names, and only those")
        #expect(try ledger.claimEventDeliveries(endpoint: "audit", now: now + 61, lease: 60, limit: 8) == [audit])
        try ledger.settleEventDelivery(audit, as: .expired, outcome: "not acknowledged in 3 days", at: now + 62)

        let backlog = try ledger.eventBacklog()
        #expect(backlog.map(\.endpoint) == ["audit", "backend"])
        #expect(backlog.first == EventBacklog(endpoint: "audit", pending: 0, oldestPending: nil, expired: 1))
        #expect(backlog.last?.pending == 1)
        #expect(backlog.last?.oldestPending == refund.event.at)
    }

    @Test(arguments: LedgerUnderTest.all)
    func anEndpointTakesEventsWhileConfiguredAndAReplaySendsThemAgainUnderTheirIds(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        let start = Date()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("p-0", original: "p-0")]))
        try ledger.configureEventEndpoints(
            [EventSubscription(endpoint: "backend", types: nil, environments: ["Sandbox"])], at: start)
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("p-1", original: "p-1")]))
        #expect(try ledger.claimEventDeliveries(endpoint: "backend", now: start + 1, lease: 60, limit: 1).isEmpty)
        try ledger.configureEventEndpoints([Self.everything], at: start)
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("p-2", original: "p-2")]))
        let delivered = try #require(
            try ledger.claimEventDeliveries(endpoint: "backend", now: start + 1, lease: 60, limit: 1).first)
        #expect(delivered.event.originalTransactionId == "p-2")
        try ledger.settleEventDelivery(delivered, as: .delivered, outcome: "200", at: start + 2)
        try ledger.configureEventEndpoints([], at: start)
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("p-3", original: "p-3")]))
        try ledger.configureEventEndpoints([Self.everything], at: start)
        #expect(try ledger.claimEventDeliveries(endpoint: "backend", now: start + 3, lease: 60, limit: 1).isEmpty)

        #expect(try ledger.replayEvents(since: .distantPast, endpoint: "other", at: start + 3) == 0)
        #expect(try ledger.replayEvents(since: .distantPast, endpoint: nil, at: start + 3) == 4)
        var replayed: [LedgerEvent] = []
        while let claim = try ledger.claimEventDeliveries(endpoint: "backend", now: start + 4, lease: 60, limit: 1)
            .first
        {
            replayed.append(claim.event)
            try ledger.settleEventDelivery(claim, as: .delivered, outcome: "200", at: start + 4)
            #expect(replayed.count <= 4)
        }
        #expect(replayed.map(\.originalTransactionId) == ["p-0", "p-1", "p-2", "p-3"])
        #expect(replayed[2] == delivered.event)
        #expect(try ledger.events(since: .distantPast, after: replayed[1].sequence, limit: 1) == [replayed[2]])
    }

    static func facts(_ event: LedgerEvent) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(event.facts.utf8)) as? [String: Any])
    }

    private func types(_ ledger: any PurchaseLedger, _ original: String) throws -> [String] {
        try ledger.events(environment: "Production", originalTransactionId: original).map(\.type)
    }

    /// Runs `sqlite` or `postgres` on the ledger's own database, as an operator's change would.
    static func execute(on ledger: any PurchaseLedger, sqlite: String, postgres: String) throws {
        if let ledger = ledger as? SQLiteLedger {
            try ledger.pool.write { db in try db.execute(sql: sqlite) }
        } else if let ledger = ledger as? PostgresLedger {
            try ledger.pool.withConnection { connection throws(LedgerError) in try connection.executeScript(postgres) }
        }
    }
}
