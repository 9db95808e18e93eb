import Foundation
import GatewayConcurrency
import GatewayCore
import Prometheus

extension GatewayMetrics {
    /// Everything recorded so far in the Prometheus text format (0.0.4), with the gauges read at scrape
    /// time refreshed first: workers busy and total, uptime, resident memory and open file descriptors.
    package func exposition(stats: GatewayStats) -> [UInt8] {
        gauge("storegate", "workers", "", "Worker threads (requests served at once)").set(Int64(stats.workersTotal))
        gauge("storegate", "workers_busy", "", "Workers serving a request now").set(Int64(stats.workersBusy))
        gauge("storegate", "uptime", "seconds", "Seconds since the process started serving")
            .set(Double(stats.startedAt.duration(to: .now).nanoseconds) / 1e9)
        if let bytes = Self.residentBytes() {
            gauge("process", "resident_memory", "bytes", "Resident memory size in bytes").set(Int64(bytes))
        }
        if let count = Self.openDescriptors() {
            gauge("process", "open_fds", "", "Open file descriptors").set(Int64(count))
        }
        var text = registry.emitToBuffer()
        renderRequestSeries(into: &text)
        return text
    }

    private func gauge(_ namespace: String, _ name: String, _ unit: String, _ help: String) -> Gauge {
        registry.makeGauge(
            descriptor: MetricNameDescriptor(namespace: namespace, metricName: name, unitName: unit, helpText: help))
    }

    /// Resident pages from /proc/self/statm times the page size (Linux only; nil elsewhere).
    static func residentBytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// Entries of /proc/self/fd, less the one listing them.
    static func openDescriptors() -> Int? {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return nil }
        return entries.count - 1
    }
}
