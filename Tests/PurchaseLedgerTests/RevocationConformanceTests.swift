import Foundation
import PurchaseLedger
import Testing

/// Family Sharing and refunds in every ledger: what was refunded of each transaction is kept beside it, a
/// reversal clears it, and a family member's access is a purchase apart from the buyer's.
@Suite struct RevocationConformance {
    static let refundedAt = Date(timeIntervalSince1970: 1_700_100_000)

    /// A pack of four coins of which Apple refunded half: the purchase stands, its transaction keeps the refund.
    @Test(arguments: LedgerUnderTest.all)
    func aPartRefundIsKeptWithItsTransactionAndAReversalClearsIt(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        var pack = Sample.consumable("80")
        pack.quantity = 4
        _ = try ledger.record(Sample.batch([pack]))
        pack.revocation = LedgerRevocation(
            date: Self.refundedAt, type: "REFUND_PRORATED", percentageMilliunits: 50_000, quantity: 2)
        #expect(try ledger.recordNotification(Sample.notification("n-80", type: "REFUND", [pack])))

        let original = LedgerOriginal(environment: "Production", originalTransactionId: "80")
        let history = try reopen().history(of: original)
        #expect(history.purchases.map(\.cancellationDate) == [nil])
        let kept = try #require(history.transactions.first)
        #expect(kept.quantity == 4)
        #expect(kept.revocation == pack.revocation)
        #expect(!kept.familyShared)

        // A verify bringing the transaction again without the refund (a device's stale copy) keeps it.
        pack.revocation = nil
        _ = try ledger.record(Sample.batch([pack]))
        #expect(try reopen().history(of: original).transactions.first?.revocation?.quantity == 2)

        #expect(try ledger.recordNotification(Sample.notification("n-81", type: "REFUND_REVERSED", [pack])))
        #expect(try reopen().history(of: original).transactions.first?.revocation == nil)
    }

    /// Revoking a family member's access, even under the buyer's original transaction, leaves the buyer's
    /// purchase as it was.
    @Test(arguments: LedgerUnderTest.all)
    func aFamilyMembersAccessIsAPurchaseApartFromTheBuyers(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let bought = Sample.nonConsumable("90", original: "90")
        var shared = Sample.nonConsumable("91", original: "90")
        shared.familyShared = true
        shared.purchaseKey = .familyShared(bought.purchaseKey)
        #expect(try ledger.record(Sample.batch([bought, shared])).recorded == 2)
        shared.cancellationDate = Self.refundedAt
        shared.revocation = LedgerRevocation(
            date: Self.refundedAt, type: "FAMILY_REVOKE", percentageMilliunits: nil, quantity: 1)
        #expect(try ledger.recordNotification(Sample.notification("n-91", type: "REVOKE", [shared])))

        let purchases = try reopen().purchases(environment: "Production", originalTransactionId: "90")
        #expect(purchases.count == 2)
        #expect(purchases.first { !$0.purchaseKey.isFamilyShared }?.cancellationDate == nil)
        #expect(purchases.first { $0.purchaseKey.isFamilyShared }?.cancellationDate == Self.refundedAt)
        let transactions = try reopen().history(
            of: LedgerOriginal(environment: "Production", originalTransactionId: "90")
        ).transactions
        #expect(transactions.first { $0.transactionId == "91" }?.familyShared == true)
        #expect(transactions.first { $0.transactionId == "91" }?.revocation?.type == "FAMILY_REVOKE")
        #expect(transactions.first { $0.transactionId == "90" }?.familyShared == false)
    }
}
