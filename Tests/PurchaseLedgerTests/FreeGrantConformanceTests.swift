import Foundation
import PurchaseLedger
import Testing

/// Free grants in every ledger: recorded with their purchase, transaction and (for an account) binding in one
/// transaction, found by id, by the purchase they belong to and as active, revoked once, and copied.
@Suite struct FreeGrantConformance {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func grant(
        _ id: String, product: String = "com.example.issue1", account: String? = nil, customer: String? = nil,
        expires: Date? = nil
    ) -> FreeGrant {
        FreeGrant(
            id: id, environment: "Production", productId: product, accountId: account,
            customerOriginalTransactionId: customer, reason: "press copy", grantedBy: "alice", grantedAt: now,
            expiresAt: expires, requestId: "cmd-1")
    }

    @Test(arguments: LedgerUnderTest.all)
    func anAccountGrantIsAPurchaseTheAccountHolds(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        try ledger.recordGrant(Self.grant("grant-00000000000000a1", account: "reader-7"))
        let other = try reopen()
        let held = try other.holdings(of: "reader-7")
        #expect(held.map(\.originalTransactionId) == ["grant-00000000000000a1"])
        #expect(held.first?.purchaseKey == .freeGrant("grant-00000000000000a1"))
        #expect(held.first?.purchaseKey.isFreeGrant == true)
        #expect(held.first?.firstSource == .grant)
        #expect(
            try other.originals(of: "grant-00000000000000a1").map(\.originalTransactionId) == ["grant-00000000000000a1"]
        )
        let events = try other.bindingEvents(environment: "Production", originalTransactionId: "grant-00000000000000a1")
        #expect(events.map(\.origin) == [.grant])
        #expect(
            try other.freeGrants(.id("grant-00000000000000a1")) == [
                Self.grant("grant-00000000000000a1", account: "reader-7")
            ])
        // The same id again is refused, and nothing of it is recorded twice.
        #expect(throws: LedgerError.self) { try ledger.recordGrant(Self.grant("grant-00000000000000a1")) }
        #expect(try other.counts().purchases == 1)
    }

    @Test(arguments: LedgerUnderTest.all)
    func aRevocationCancelsThePurchaseOnce(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        try ledger.recordGrant(Self.grant("grant-00000000000000b1", account: "reader-7"))
        let revokedAt = Self.now.addingTimeInterval(60)
        let revoked = try #require(
            try ledger.revokeGrant("grant-00000000000000b1", by: "bob", reason: "leaked", at: revokedAt))
        #expect(revoked.revokedAt == revokedAt)
        #expect(revoked.revokedBy == "bob")
        #expect(revoked.revokeReason == "leaked")
        #expect(!revoked.isActive(at: revokedAt))
        let purchase = try ledger.purchases(environment: "Production", originalTransactionId: "grant-00000000000000b1")
        #expect(purchase.map(\.cancellationDate) == [revokedAt])
        // A second revocation changes nothing; an unknown id is nil.
        let again = try ledger.revokeGrant(
            "grant-00000000000000b1", by: "carol", reason: "again", at: revokedAt.addingTimeInterval(60))
        #expect(again == revoked)
        #expect(try ledger.revokeGrant("grant-ffffffffffffffff", by: "bob", reason: "x", at: revokedAt) == nil)
    }

    @Test(arguments: LedgerUnderTest.all)
    func grantsAreFoundByPurchaseAndByWhetherTheyAreActive(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("700", original: "700")]))
        try ledger.recordGrant(Self.grant("grant-00000000000000c1", product: "com.example.issue2", customer: "700"))
        try ledger.recordGrant(
            Self.grant("grant-00000000000000c2", customer: "700", expires: Self.now.addingTimeInterval(3_600)))
        try ledger.recordGrant(Self.grant("grant-00000000000000c3", account: "reader-9"))
        _ = try ledger.revokeGrant("grant-00000000000000c3", by: "bob", reason: "mistake", at: Self.now)
        let about = try ledger.freeGrants(.about(environment: "Production", originalTransactionId: "700"))
        #expect(about.map(\.id) == ["grant-00000000000000c1", "grant-00000000000000c2"])
        #expect(about.first?.customerOriginalTransactionId == "700")
        // A customer's purchase tells its grants in its history; the grant's own purchase tells itself.
        let history = try ledger.history(of: LedgerOriginal(environment: "Production", originalTransactionId: "700"))
        #expect(history.freeGrants.map(\.id) == ["grant-00000000000000c1", "grant-00000000000000c2"])
        #expect(history.purchases.map(\.productId) == ["com.example.issue1"])
        #expect(
            try ledger.freeGrants(.about(environment: "Production", originalTransactionId: "grant-00000000000000c3"))
                .map(\.id) == ["grant-00000000000000c3"])
        let soon = Self.now.addingTimeInterval(60)
        #expect(
            try ledger.freeGrants(.active(at: soon)).map(\.id) == ["grant-00000000000000c1", "grant-00000000000000c2"])
        #expect(
            try ledger.freeGrants(.active(at: soon.addingTimeInterval(7_200))).map(\.id) == ["grant-00000000000000c1"])
        #expect(try ledger.freeGrants(.all).count == 3)
    }
}
