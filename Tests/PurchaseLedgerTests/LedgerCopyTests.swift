import Foundation
import PurchaseLedger
import Testing

/// `storegate ledger copy`: every row arrives, in pages, once, between any two stores.
@Suite struct LedgerCopy {
    @Test(arguments: [(LedgerUnderTest.sqlite, LedgerUnderTest.postgres), (.postgres, .sqlite)])
    func everyRowArrivesOnceAndTheTargetKeepsWorking(from: LedgerUnderTest, to: LedgerUnderTest) throws {
        let (source, _) = try from.open()
        let (target, _) = try to.open()
        try source.configureEventEndpoints(
            [EventSubscription(endpoint: "backend", types: nil, environments: nil)], at: Date(timeIntervalSince1970: 1))
        let renewal = Date(timeIntervalSince1970: 1_800_000_000)
        _ = try source.record(
            Sample.batch([
                Sample.nonConsumable("1", original: "1"), Sample.nonConsumable("2", original: "1"),
                Sample.period("3", original: "3", lineItem: "L3", expires: renewal),
                Sample.period("4", original: "3", lineItem: "L4", expires: renewal.addingTimeInterval(86_400 * 30)),
                Sample.consumable("5"), Sample.consumable("6"),
                Sample.nonConsumable("7", original: "7", environment: "Sandbox"),
            ]))
        for number in 1...3 {
            try source.recordDelivery(
                Delivery(
                    environment: "Production", productId: "com.example.issue1", originalTransactionId: "1",
                    contentSHA256: String(repeating: "\(number)", count: 64), requestId: "r\(number)",
                    deliveredAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number))))
        }

        _ = try source.recordNotification(
            LedgerNotification(
                uuid: "n-1", environment: "Production", type: "CONSUMPTION_REQUEST", subtype: nil, reinstates: false,
                batch: Sample.batch([]), consumptionRequest: Sample.consumptionRequest("n-1", original: "1")))
        // A Google review's request, with the app and the handle Google's answer needs.
        _ = try source.recordNotification(
            LedgerNotification(
                uuid: "google-play:n-2", environment: "Production", type: "PENDING_REFUND_REVIEW", subtype: nil,
                reinstates: false, batch: Sample.batch([]),
                consumptionRequest: Sample.consumptionRequest(
                    "google-play:n-2", original: "1", store: "google-play", app: "com.example.reader",
                    subject: "pending-token")))
        try source.recordBackfill(
            BackfillRun(
                trigger: "command", from: Date(timeIntervalSince1970: 1_700_000_000),
                to: Date(timeIntervalSince1970: 1_700_086_400), listed: 1, recorded: 1, duplicates: 0, refused: 0))
        for (account, policy) in [("a", RestorePolicy.keep), ("b", .share), ("c", .transfer)] {
            _ = try source.claim(AccountBindingConformance.claim(account, "1", policy))
        }
        try source.recordGrant(FreeGrantConformance.grant("grant-00000000000000d1", account: "a"))
        _ = try source.revokeGrant("grant-00000000000000d1", by: "bob", reason: "test", at: FreeGrantConformance.now)
        try source.recordRestores([
            Restore(environment: "Production", originalTransactionId: "1", requestId: "r-restore"),
            Restore(environment: "Production", originalTransactionId: "3", requestId: "r-restore"),
        ])
        _ = try source.record(
            Sample.batch(
                [Sample.nonConsumable("g-1", original: "g-1")],
                followUps: [Sample.followUp("acknowledge", original: "g-1")],
                handles: [StoreHandleConformance.handle("digest-g-1", original: "g-1")]))
        _ = try source.recordNotification(
            LedgerNotification(
                uuid: "n-renewal", environment: "Production", type: "DID_CHANGE_RENEWAL_STATUS", subtype: nil,
                reinstates: false, batch: Sample.batch([]), renewal: RenewalConformance.renewal(original: "3", at: 1)))
        try source.recordDeliveryFailure(
            DeliveryFailureConformance.failure("r-failed", original: "1", at: 1_700_000_009))
        let copied = try source.copy(into: target, pageSize: 2)
        #expect(copied.map(\.read) == [8, 9, 3, 3, 2, 1, 2, 4, 1, 2, 1, 1, 1, 1, 16, 1, 16])
        #expect(copied.map(\.added) == [8, 9, 3, 3, 2, 1, 2, 4, 1, 2, 1, 1, 1, 1, 16, 1, 16])
        // The copied changes wrote no events of their own: the target has the source's, under the same ids.
        #expect(
            try target.events(since: .distantPast, after: 0, limit: 100)
                == source.events(since: .distantPast, after: 0, limit: 100))
        #expect(try target.eventBacklog() == source.eventBacklog())
        #expect(
            try target.renewals(environment: "Production", originalTransactionId: "3")
                == source.renewals(environment: "Production", originalTransactionId: "3"))
        #expect(
            try target.deliveryFailures(environment: "Production", originalTransactionId: "1")
                == source.deliveryFailures(environment: "Production", originalTransactionId: "1"))
        #expect(
            try target.originals(ofHandle: "digest-g-1", store: "google-play")
                == [LedgerOriginal(environment: "Production", originalTransactionId: "g-1")])
        #expect(
            try target.followUps(environment: "Production", originalTransactionId: "g-1")
                == source.followUps(environment: "Production", originalTransactionId: "g-1"))
        #expect(
            try target.restores(environment: "Production", originalTransactionId: "3")
                == source.restores(environment: "Production", originalTransactionId: "3"))
        #expect(try target.freeGrants(.all) == source.freeGrants(.all))
        #expect(try target.notificationsRecordedUntil() == source.notificationsRecordedUntil())
        #expect(try target.counts() == source.counts())
        for (environment, original) in [
            ("Production", "1"), ("Production", "3"), ("Production", "5"), ("Sandbox", "7"),
        ] {
            let expected = try source.purchases(environment: environment, originalTransactionId: original)
            #expect(try target.purchases(environment: environment, originalTransactionId: original) == expected)
        }
        #expect(
            try target.deliveries(environment: "Production", originalTransactionId: "1")
                == source.deliveries(environment: "Production", originalTransactionId: "1"))

        let requests = try target.consumptionRequests(environment: "Production", originalTransactionId: "1")
        #expect(requests == (try source.consumptionRequests(environment: "Production", originalTransactionId: "1")))
        #expect(requests.map(\.state) == [.pending, .pending])
        #expect(requests.map(\.request.store).sorted() == ["app-store", "google-play"])
        #expect(
            try target.claimConsumptionRequests(store: "google-play", now: Date(), lease: 60, limit: 5).map(\.subject)
                == ["pending-token"])

        // Run again (an interrupted copy resumed): nothing doubles.
        #expect(try source.copy(into: target).map(\.added) == Array(repeating: 0, count: 17))
        #expect(try target.holdings(of: "c") == source.holdings(of: "c"))
        #expect(
            try target.bindingEvents(environment: "Production", originalTransactionId: "1")
                == source.bindingEvents(environment: "Production", originalTransactionId: "1"))
        // The copy is a working ledger: known purchases stay known, new grants come after the copied ones.
        #expect(try target.record(Sample.batch([Sample.consumable("5")])) == RecordOutcome(recorded: 0, known: 1))
        let next = Delivery(
            environment: "Production", productId: "com.example.issue1", originalTransactionId: "1",
            contentSHA256: String(repeating: "4", count: 64), requestId: "r4", deliveredAt: Date())
        try target.recordDelivery(next)
        #expect(
            try target.deliveries(environment: "Production", originalTransactionId: "1").map(\.requestId)
                == ["r1", "r2", "r3", "r4"])
    }
}
