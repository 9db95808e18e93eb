import GatewayCore

extension GatewayMetrics {
    /// `storegate_requests_total` and `storegate_request_duration_seconds` in the Prometheus text format,
    /// from every thread's tallies: routes in order, statuses in order, buckets cumulative as Prometheus wants.
    func renderRequestSeries(into text: inout [UInt8]) {
        let totals = requestTotals.sorted { $0.key < $1.key }
        guard !totals.isEmpty else { return }
        text.append(contentsOf: "# TYPE storegate_requests_total counter\n".utf8)
        for (route, snapshot) in totals {
            for (status, count) in snapshot.statuses.sorted(by: { $0.key < $1.key }) {
                text.append(
                    contentsOf: "storegate_requests_total{route=\"\(route)\",status=\"\(status)\"} \(count)\n".utf8)
            }
        }
        text.append(contentsOf: "# TYPE storegate_request_duration_seconds histogram\n".utf8)
        for (route, snapshot) in totals {
            let name = "storegate_request_duration_seconds"
            var cumulative = 0
            for (index, count) in snapshot.buckets.enumerated() {
                cumulative += count
                let bound = index < RouteTally.bounds.count ? Self.seconds(RouteTally.bounds[index]) : "+Inf"
                text.append(contentsOf: "\(name)_bucket{route=\"\(route)\",le=\"\(bound)\"} \(cumulative)\n".utf8)
            }
            text.append(contentsOf: "\(name)_sum{route=\"\(route)\"} \(Self.seconds(snapshot.totalNanoseconds))\n".utf8)
            text.append(contentsOf: "\(name)_count{route=\"\(route)\"} \(cumulative)\n".utf8)
        }
    }

    /// Seconds as swift-prometheus writes a `Duration` (`0.0025`, `30.0`), so the series read as before.
    static func seconds(_ nanoseconds: Int) -> String {
        var fraction = String(nanoseconds % 1_000_000_000 + 1_000_000_000).dropFirst()
        while fraction.count > 1, fraction.last == "0" { fraction.removeLast() }
        return "\(nanoseconds / 1_000_000_000).\(fraction)"
    }
}
