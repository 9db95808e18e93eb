import Foundation
import PurchaseLedger
import Synchronization
import Testing

/// Account bindings in every ledger: the first account binds a purchase, each restore policy settles a second
/// account's claim, every change is recorded, and claims racing from two gateways settle one after another.
@Suite struct AccountBindingConformance {
    static func claim(_ account: String, _ original: String, _ policy: RestorePolicy, request: String = "r")
        -> AccountClaim
    {
        AccountClaim(
            environment: "Production", originalTransactionId: original, productId: "com.example.issue\(original)",
            accountId: account, policy: policy, requestId: request)
    }

    func events(_ ledger: any PurchaseLedger, _ original: String) throws -> [String] {
        try ledger.bindingEvents(environment: "Production", originalTransactionId: original).map {
            "\($0.accountId) \($0.change.rawValue) \($0.otherAccounts.joined(separator: ","))"
        }
    }

    @Test(arguments: LedgerUnderTest.all)
    func eachPolicySettlesASecondAccountsClaim(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        for original in ["1", "2", "3"] {
            _ = try ledger.record(Sample.batch([Sample.nonConsumable(original, original: original)]))
            #expect(try ledger.claim(Self.claim("a", original, .keep)) == .bound)
            #expect(try ledger.claim(Self.claim("a", original, .transfer)) == .held)
        }
        #expect(try ledger.claim(Self.claim("b", "1", .keep)) == .heldByOthers(["a"]))
        #expect(try ledger.claim(Self.claim("b", "2", .transfer)) == .transferred(from: ["a"]))
        #expect(try ledger.claim(Self.claim("b", "3", .share)) == .shared(with: ["a"]))

        #expect(try ledger.holders(environment: "Production", originalTransactionId: "1") == ["a"])
        #expect(try ledger.holders(environment: "Production", originalTransactionId: "2") == ["b"])
        #expect(Set(try ledger.holders(environment: "Production", originalTransactionId: "3")) == ["a", "b"])
        #expect(Set(try ledger.holdings(of: "a").map(\.originalTransactionId)) == ["1", "3"])
        #expect(Set(try ledger.holdings(of: "b").map(\.originalTransactionId)) == ["2", "3"])
        #expect(try ledger.holdings(of: "nobody").isEmpty)

        let (first, second, third) = (try events(ledger, "1"), try events(ledger, "2"), try events(ledger, "3"))
        #expect(first == ["a bound ", "b refused a"], "\(first)")
        #expect(second == ["a bound ", "b transferred a"], "\(second)")
        #expect(third == ["a bound ", "b shared a"], "\(third)")
        // Moving it back is a transfer too; a purchase in another environment is another purchase.
        #expect(try ledger.claim(Self.claim("a", "2", .transfer)) == .transferred(from: ["b"]))
        #expect(try ledger.holdings(of: "b").map(\.originalTransactionId) == ["3"])
        let sandbox = AccountClaim(
            environment: "Sandbox", originalTransactionId: "1", productId: "com.example.issue1", accountId: "b",
            policy: .keep, requestId: "r")
        #expect(try ledger.claim(sandbox) == .bound)
    }

    @Test(arguments: LedgerUnderTest.all)
    func heldPurchasesCarryTheirRefunds(_ subject: LedgerUnderTest) throws {
        let (ledger, _) = try subject.open()
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("20", original: "20")]))
        #expect(try ledger.claim(Self.claim("a", "20", .keep)) == .bound)
        var refunded = Sample.nonConsumable("20", original: "20")
        refunded.cancellationDate = Date()
        #expect(try ledger.recordNotification(Sample.notification("n-refund-20", type: "REFUND", [refunded])))
        #expect(try ledger.holdings(of: "a").first?.cancellationDate != nil)
    }

    @Test(arguments: LedgerUnderTest.all)
    func twoGatewaysClaimingAtOnceMakeOneBinding(_ subject: LedgerUnderTest) throws {
        let (ledger, reopen) = try subject.open()
        let other = try reopen()
        for round in 0..<5 {
            let original = "3\(round)"
            _ = try ledger.record(Sample.batch([Sample.nonConsumable(original, original: original)]))
            let outcomes = Mutex<[ClaimOutcome]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { index in
                let claim = Self.claim("account-\(index)", original, .keep, request: "r\(index)")
                if let outcome = try? (index.isMultiple(of: 2) ? ledger : other).claim(claim) {
                    outcomes.withLock { $0.append(outcome) }
                }
            }
            let settled = outcomes.withLock { $0 }
            #expect(settled.count == 8)
            #expect(settled.filter { $0 == .bound }.count == 1)
            let holders = try other.holders(environment: "Production", originalTransactionId: original)
            #expect(holders.count == 1)
            #expect(settled.filter { $0 == .heldByOthers(holders) }.count == 7)
            #expect(try events(ledger, original).filter { $0.contains(" bound") }.count == 1)
        }
    }
}
