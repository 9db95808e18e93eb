import CoreMetrics
import PurchaseLedger

/// `storegate_account_claims_total{outcome}`: what accounts' claims to purchases did (`bound`, `held`,
/// `shared`, `transferred`, `refused`), so an operator sees transfers and refusals as they happen.
package struct AccountClaimCounters: Sendable {
    private let bound, held, shared, transferred, refused: Counter

    package init(factory: any MetricsFactory) {
        let counter = { (outcome: String) in
            Counter(label: "storegate_account_claims_total", dimensions: [("outcome", outcome)], factory: factory)
        }
        (bound, held, shared, transferred, refused) = (
            counter("bound"), counter("held"), counter("shared"), counter("transferred"), counter("refused")
        )
    }

    func count(_ outcome: ClaimOutcome) {
        switch outcome {
        case .bound: bound.increment()
        case .held: held.increment()
        case .shared: shared.increment()
        case .transferred: transferred.increment()
        case .heldByOthers: refused.increment()
        }
    }
}
