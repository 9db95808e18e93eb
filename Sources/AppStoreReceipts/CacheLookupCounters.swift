import CoreMetrics

/// `storegate_verification_cache_lookups_total{result}`, one series for every verdict cache (the factory
/// hands each backend the same counters).
struct CacheLookupCounters: Sendable {
    private let hits: Counter
    private let misses: Counter

    init(factory: any MetricsFactory) {
        let label = "storegate_verification_cache_lookups_total"
        hits = Counter(label: label, dimensions: [("result", "hit")], factory: factory)
        misses = Counter(label: label, dimensions: [("result", "miss")], factory: factory)
    }

    func count(cached: Bool) { (cached ? hits : misses).increment() }
}
