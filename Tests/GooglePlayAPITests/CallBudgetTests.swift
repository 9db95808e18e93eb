import StoreHTTP
import Testing

/// The budget by the clock it is given: refilled evenly over its window, closed by a store's 429.
@Suite struct CallBudgetTests {
    enum Bucket: CaseIterable { case purchases }

    /// The refill is computed in floating point: equal to a millisecond.
    static func near(_ wait: Duration?, _ expected: Duration) -> Bool {
        guard let wait else { return false }
        return abs((wait - expected) / .milliseconds(1)) < 1
    }

    @Test func callsBeyondTheBudgetWaitForTheRefill() {
        let start = ContinuousClock.now
        let budget = CallBudget<Bucket>(calls: 2, per: .seconds(60), now: start)
        #expect(budget.take(.purchases, now: start) == nil)
        #expect(budget.take(.purchases, now: start) == nil)
        #expect(Self.near(budget.take(.purchases, now: start), .seconds(30)))
        #expect(Self.near(budget.take(.purchases, now: start + .seconds(10)), .seconds(20)))
        #expect(budget.take(.purchases, now: start + .seconds(30)) == nil)
    }

    @Test func aStoresPauseHoldsEvenWithCallsLeft() {
        let start = ContinuousClock.now
        let budget = CallBudget<Bucket>(calls: 100, per: .seconds(60), now: start)
        budget.close(.purchases, for: .seconds(120), now: start)
        #expect(Self.near(budget.take(.purchases, now: start + .seconds(20)), .seconds(100)))
        #expect(budget.take(.purchases, now: start + .seconds(120)) == nil)
    }
}
