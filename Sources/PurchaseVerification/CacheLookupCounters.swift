import CoreMetrics

/// `storegate_verification_cache_lookups_total{result}`, one series for every verdict cache (the factory
/// hands each backend the same counters).
package struct CacheLookupCounters: Sendable {
    private let hits: Counter
    private let misses: Counter

    package init(factory: any MetricsFactory) {
        let label = "storegate_verification_cache_lookups_total"
        hits = Counter(label: label, dimensions: [("result", "hit")], factory: factory)
        misses = Counter(label: label, dimensions: [("result", "miss")], factory: factory)
    }

    package func count(cached: Bool) { (cached ? hits : misses).increment() }
}
