import CoreMetrics
import Crypto
import GatewayHandlerAPI

/// What a walk by `Mirror` over everything reachable from some values found: where it met a config reader, a
/// metrics factory, a keyed HMAC (which signs whatever it is given) or a function (a closure it could cast and
/// call), and every string it read.
struct ReflectionFindings: Encodable {
    var configReaders: [String] = []
    var keyedMACs: [String] = []
    var metricsFactories: [String] = []
    var functions: [String] = []
    var strings: [String] = []
    /// Where the walk met a pointer, or one of the gateway's shared log buffers (a twenty-fourth reviewer's read
    /// every route's request lines from `setup.logger`'s log output that way).
    var pointers: [String] = []
    var visited = 0

    /// Walks `value` and what it holds, down to a bounded depth (classes may hold each other).
    mutating func walk(_ value: Any, path: String, depth: Int = 0) {
        guard depth < 16, visited < 50_000 else { return }
        visited += 1
        if value is ConfigReader { configReaders.append(path) }
        if value is any MetricsFactory { metricsFactories.append(path) }
        if value is HMAC<SHA256> { keyedMACs.append(path) }
        let typeName = "\(type(of: value))"
        if typeName.hasPrefix("(") || typeName.hasPrefix("@"), typeName.contains("->") { functions.append(path) }
        if let text = value as? String { strings.append(text) }
        if typeName.hasPrefix("Unsafe") || typeName.hasPrefix("OpaquePointer") || typeName.hasPrefix("LogOutput") {
            pointers.append(path)
        }
        for (index, child) in Mirror(reflecting: value).children.enumerated() {
            walk(child.value, path: path + "." + (child.label ?? "\(index)"), depth: depth + 1)
        }
    }
}
