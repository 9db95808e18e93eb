import CoreMetrics

/// The metrics factory a handler module is handed: its metrics land in the process's Prometheus registry, but
/// the factory behind them is not reachable (a cast finds only this one, a mirror shows nothing), and every label
/// a handler gives gets `handler_` before it: the gateway's own series (`storegate_…`, `process_…`) are not a
/// handler's to write, whatever the exposition later makes of a label (`store-gate_x` is `store_gate_x` there).
/// A class: the standard library's field reflection, which ignores a custom mirror, reads structs only.
final class HandlerMetricsFactory: MetricsFactory, CustomReflectable, Sendable {
    private let base: any MetricsFactory

    init(base: any MetricsFactory) { self.base = base }

    var customMirror: Mirror { Mirror(self, children: [:]) }

    private func own(_ label: String) -> String { "handler_" + label }

    /// `dimensions` without the names Prometheus keeps for histograms and summaries (`le`, `quantile`): one of
    /// those on a handler's series made the whole scrape unreadable, the gateway's series too. A name that
    /// already starts with `handler_` gets it again, so no two names a handler gives become one (the exposition
    /// stops the process on a repeated dimension).
    private func own(_ dimensions: [(String, String)]) -> [(String, String)] {
        dimensions.map { name, value in
            (name == "le" || name == "quantile" || name.hasPrefix("handler_") ? "handler_" + name : name, value)
        }
    }

    func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        base.makeCounter(label: own(label), dimensions: own(dimensions))
    }

    func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        base.makeFloatingPointCounter(label: own(label), dimensions: own(dimensions))
    }

    func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        base.makeMeter(label: own(label), dimensions: own(dimensions))
    }

    func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        base.makeRecorder(label: own(label), dimensions: own(dimensions), aggregate: aggregate)
    }

    func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        base.makeTimer(label: own(label), dimensions: own(dimensions))
    }

    func destroyCounter(_ handler: any CounterHandler) { base.destroyCounter(handler) }
    func destroyMeter(_ handler: any MeterHandler) { base.destroyMeter(handler) }
    func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) {
        base.destroyFloatingPointCounter(handler)
    }
    func destroyRecorder(_ handler: any RecorderHandler) { base.destroyRecorder(handler) }
    func destroyTimer(_ handler: any TimerHandler) { base.destroyTimer(handler) }
}
