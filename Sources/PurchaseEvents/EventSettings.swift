import Foundation
import GatewayCore

/// The `events` section: the app's own backends that hear of every purchase change, and how hard each event is
/// tried. Problems are reported at their key paths.
package struct EventSettings: Sendable {
    package let endpoints: [EventEndpoint]
    /// How long an event is tried before it is kept as undeliverable (`retry_for_s`, default three days).
    package let retryWindow: TimeInterval
    /// The most one delivery may take (`timeout_s`, default 10).
    package let timeout: Duration
    /// The wait before the first retry (`first_retry_s`, default 10), doubling to an hour at most.
    package let firstRetry: TimeInterval
    /// How often each endpoint's due events are looked for (`poll_ms`, default 1000).
    package let pollInterval: TimeInterval

    package init(section: ConfigReader) {
        let endpoints = section.scoped("endpoints")
        var names: [String] = []
        switch section.value("endpoints") {
        case .mapping(let entries)?: names = entries.keys.sorted()
        case nil, .null?: break
        default: section.report("endpoints", "must map each endpoint's name to its url, secret and choices")
        }
        // An endpoint the environment alone names (STOREGATE_EVENTS_ENDPOINTS_<NAME>_URL), as a container sets it.
        names += section.environmentNames(in: "endpoints", by: "url").filter { !names.contains($0) }
        self.endpoints = names.compactMap { name in
            guard name.allSatisfy({ $0.isLowercase || $0.isNumber || $0 == "_" }), !name.isEmpty else {
                endpoints.report(name, "is not a name: use lower-case letters, digits and _ (it names metrics)")
                return nil
            }
            return EventEndpoint(name: name, section: endpoints.scoped(name))
        }
        retryWindow = TimeInterval(section.int("retry_for_s", default: 3 * 86_400, in: 1...90 * 86_400))
        timeout = .seconds(section.int("timeout_s", default: 10, in: 1...120))
        firstRetry = TimeInterval(section.int("first_retry_s", default: 10, in: 1...3_600))
        pollInterval = TimeInterval(section.int("poll_ms", default: 1_000, in: 50...60_000)) / 1_000
    }

    /// The wait before attempt `attempts + 1` after `attempts` failed ones: doubling from the first retry's, an
    /// hour at most, or longer when the receiver asked (`Retry-After`, seconds).
    package func pause(after attempts: Int, retryAfter: TimeInterval?) -> TimeInterval {
        max(min(firstRetry * pow(2, Double(min(max(attempts, 1), 20) - 1)), 3_600), retryAfter ?? 0)
    }
}
