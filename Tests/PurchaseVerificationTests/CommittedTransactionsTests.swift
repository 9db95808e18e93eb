import Foundation
import PurchaseLedger
import Testing

@testable import PurchaseVerification

/// What a recorder remembers of its commits: each row exactly as committed, within its limit.
@Suite struct CommittedTransactionsTests {
    static func row(_ id: String, cancelled: Date? = nil) -> LedgerTransaction {
        LedgerTransaction(
            environment: "Production", bundleId: "com.example.app", productId: "com.example.issue1",
            transactionId: id, originalTransactionId: id, purchaseKey: PurchaseKey(rawValue: "nc:\(id)"),
            cancellationDate: cancelled)
    }

    @Test func aRowIsKnownOnlyAsItWasCommitted() {
        let committed = CommittedTransactions(limit: 10)
        #expect(!committed.containsUnchanged([Self.row("1")]))
        committed.remember([Self.row("1"), Self.row("2")])
        #expect(committed.containsUnchanged([Self.row("1"), Self.row("2")]))
        #expect(!committed.containsUnchanged([Self.row("1", cancelled: Date(timeIntervalSince1970: 1))]))
        #expect(!committed.containsUnchanged([Self.row("1"), Self.row("3")]))
        #expect(!committed.containsUnchanged([]))
        var sandbox = Self.row("1")
        sandbox.environment = "Sandbox"
        #expect(!committed.containsUnchanged([sandbox]))
    }

    @Test func pastItsLimitItStartsAfresh() {
        let committed = CommittedTransactions(limit: 3)
        committed.remember([Self.row("1"), Self.row("2")])
        committed.remember([Self.row("3"), Self.row("4")])
        #expect(!committed.containsUnchanged([Self.row("1")]))
        #expect(committed.containsUnchanged([Self.row("3"), Self.row("4")]))
    }
}
