import Foundation
import Testing

/// The app backend's side of events in the tests: a real HTTP server on 127.0.0.1 (Python's), checking each
/// delivery's signature with the example's own code (deploy/events/receive_events.py) and keeping every attempt.
/// It can be taken down and brought back on the same port, made to fail (503) or to hang.
final class EventReceiver: @unchecked Sendable {
    static let secret = "test-events-secret-0123456789"

    /// One delivery attempt as the receiver saw it.
    struct Attempt {
        let verified: Bool
        let eventIdHeader: String?
        let status: String
        let event: [String: Any]
        var id: String { event["id"] as? String ?? "" }
        var type: String { event["type"] as? String ?? "" }
        var original: String { event["original_transaction_id"] as? String ?? "" }
    }

    let folder: URL
    private(set) var port = 0
    private var process: ManagedProcess?
    private var log: URL { folder.appendingPathComponent("received.jsonl") }
    private var modeFile: URL { folder.appendingPathComponent("mode") }

    init(mode: String = "ok") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("receiver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try set(mode)
        try start()
    }

    /// The `events` section of a gateway delivering to this receiver.
    func config(name: String = "backend", extra: String = "") -> String {
        """
        events:
          first_retry_s: 1
          timeout_s: 2
          poll_ms: 100
        \(extra.isEmpty ? "" : "  " + extra + "\n")  endpoints:
            \(name):
              url: "http://127.0.0.1:\(port)/storegate/events"
              secret: \(Self.secret)

        """
    }

    /// `ok` (answers 204), `fail` (503) or `slow` (no answer for 30 s).
    func set(_ mode: String) throws { try Data(mode.utf8).write(to: modeFile) }

    /// Starts it, on the port it had if it ran before.
    func start() throws {
        let script = Binaries.checkout.appendingPathComponent("Tests/Support/EventReceiver/event_receiver.py")
        let output = folder.appendingPathComponent("server-\(UUID().uuidString).log")
        let started = try ManagedProcess(
            "/usr/bin/python3", [script.path, String(port), Self.secret, log.path, modeFile.path], logFile: output)
        var line = ""
        guard
            ManagedProcess.poll(
                for: .seconds(10),
                {
                    line =
                        started.log.split(separator: "\n").first { $0.hasPrefix("listening ") }.map(String.init) ?? ""
                    return !line.isEmpty
                }), let bound = Int(line.dropFirst("listening ".count))
        else {
            started.stop()
            throw HTTPClient.Failure(description: "the event receiver did not start:\n\(started.log)")
        }
        port = bound
        process = started
    }

    /// Takes it down: connections are refused until ``start()``.
    func stop() {
        process?.stop()
        process = nil
    }

    func remove() {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Every attempt so far, in the order they arrived.
    var attempts: [Attempt] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let event = record["event"] as? [String: Any]
            else { return nil }
            return Attempt(
                verified: record["verified"] as? Bool ?? false, eventIdHeader: record["event_id_header"] as? String,
                status: "\(record["status"] ?? "")", event: event)
        }
    }

    /// The events acknowledged (204), in the order they arrived.
    var acknowledged: [Attempt] { attempts.filter { $0.status == "204" } }

    /// Waits until `count` events were acknowledged.
    func waitForAcknowledged(_ count: Int, within limit: Duration = .seconds(30)) -> Bool {
        ManagedProcess.poll(for: limit) { acknowledged.count >= count }
    }
}
