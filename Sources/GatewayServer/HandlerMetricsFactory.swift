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

    /// `label` after `handler_`, made a plain Prometheus metric name scalar by scalar (ASCII letters, digits, `_`
    /// and `:`; any other scalar `_`): the exposition kept a name such as `x\u{FE0F}` (one character, which sorts
    /// among the letters), and a name outside ASCII made the whole scrape unreadable (a twenty-second reviewer's).
    private func own(_ label: String) -> String {
        "handler_" + Self.plain(label, keeping: ":")
    }

    /// `dimensions` named as the exposition writes them, none of them twice and none of the names Prometheus
    /// keeps for itself (`le`, `quantile`, anything starting `__`, such as `__name__`): each made the whole scrape
    /// unreadable, the gateway's series too (`a-b` and `a_b` were both written `a_b`, a nineteenth reviewer's;
    /// `-_name__` is `__name__` once written, a twenty-third's). A repeated or
    /// kept name gets `handler_` before it until it is unique; a name that starts with `handler_` gets it again,
    /// so no renamed one can meet it.
    private func own(_ dimensions: [(String, String)]) -> [(String, String)] {
        var taken: Set<String> = []
        return dimensions.map { name, value in
            var owned = Self.exposed(name)
            if owned == "le" || owned == "quantile" || owned.hasPrefix("__") || owned.hasPrefix("handler_") {
                owned = "handler_" + owned
            }
            while !taken.insert(owned).inserted { owned = "handler_" + owned }
            return (owned, value)
        }
    }

    /// `name` as a valid Prometheus label name, which the exposition leaves as it is: every character other
    /// than an ASCII letter, digit or `_` made `_`, and `_` before a leading digit or for no name at all.
    private static func exposed(_ name: String) -> String {
        let plain = plain(name, keeping: "_")
        return plain.first.map { !("0"..."9").contains($0) } ?? false ? plain : "_" + plain
    }

    /// `text` with every scalar other than an ASCII letter, a digit or `kept` made `_`.
    private static func plain(_ text: String, keeping kept: Unicode.Scalar) -> String {
        String(
            decoding: text.unicodeScalars.map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == kept)
                    ? UInt8(scalar.value) : UInt8(ascii: "_")
            }, as: UTF8.self)
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
