import Crypto
import Foundation
import Testing

/// A receiver that keeps each attempt as it arrived (path, every header, the body's raw bytes) and answers as
/// its mode file says: `ok` (204), `redirect` (307 to another path of itself), `hang` (no answer for 60 s),
/// `hugefail` (500 with a 60 kB header and a 64 MiB body), `hugeok` (200, the same).
final class RawEventReceiver: @unchecked Sendable {
    struct Attempt {
        let path: String
        let headers: [(String, String)]
        let body: [UInt8]
        let mode: String
        func header(_ name: String) -> [String] {
            headers.filter { $0.0.lowercased() == name.lowercased() }.map(\.1)
        }
        var event: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:]
        }
        var id: String { event["id"] as? String ?? "" }
        var type: String { event["type"] as? String ?? "" }
        var original: String { event["original_transaction_id"] as? String ?? "" }
    }

    static let script = #"""
        import base64, json, sys, time
        from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
        PORT, LOG, MODE = int(sys.argv[1]), sys.argv[2], sys.argv[3]
        class R(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with open(MODE) as m:
                    mode = m.read().strip()
                record = {"path": self.path, "headers": [[k, v] for k, v in self.headers.items()],
                          "body": base64.b64encode(body).decode(), "mode": mode}
                with open(LOG, "a") as log:
                    log.write(json.dumps(record) + "\n")
                if mode == "hang":
                    time.sleep(60)
                    return
                if mode == "redirect":
                    self.send_response(307)
                    self.send_header("Location", "http://127.0.0.1:%d/redirected" % PORT)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if mode == "junkok":
                    self.send_response(200)
                    self.send_header("X-Junk", "j" * 60000)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                if mode in ("hugefail", "hugeok", "bigok"):
                    size = 64 * 1024 * 1024
                    self.send_response(500 if mode == "hugefail" else 200)
                    self.send_header("Content-Length", str(size))
                    if mode != "bigok":
                        self.send_header("X-Junk", "j" * 60000)
                    self.end_headers()
                    chunk = b"x" * 65536
                    try:
                        for _ in range(size // 65536):
                            self.wfile.write(chunk)
                    except Exception:
                        pass
                    return
                self.send_response(204)
                self.send_header("Content-Length", "0")
                self.end_headers()
            def log_message(self, *args):
                pass
        ThreadingHTTPServer.daemon_threads = True
        server = ThreadingHTTPServer(("127.0.0.1", PORT), R)
        print("listening", server.server_address[1], flush=True)
        server.serve_forever()
        """#

    let folder: URL
    private(set) var port = 0
    private var process: ManagedProcess?
    private var log: URL { folder.appendingPathComponent("received.jsonl") }
    private var modeFile: URL { folder.appendingPathComponent("mode") }

    init(mode: String = "ok") throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("raw-receiver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try set(mode)
        let scriptFile = folder.appendingPathComponent("receiver.py")
        try Self.script.write(to: scriptFile, atomically: true, encoding: .utf8)
        let started = try ManagedProcess(
            "/usr/bin/python3", [scriptFile.path, "0", log.path, modeFile.path],
            logFile: folder.appendingPathComponent("server.log"))
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
            throw HTTPClient.Failure(description: "the raw receiver did not start:\n\(started.log)")
        }
        port = bound
        process = started
    }

    func set(_ mode: String) throws { try Data(mode.utf8).write(to: modeFile) }

    func remove() {
        process?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var attempts: [Attempt] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            guard let record = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let path = record["path"] as? String, let body = record["body"] as? String,
                let raw = Data(base64Encoded: body)
            else { return nil }
            let headers = (record["headers"] as? [[String]] ?? []).compactMap { pair in
                pair.count == 2 ? (pair[0], pair[1]) : nil
            }
            return Attempt(path: path, headers: headers, body: Array(raw), mode: record["mode"] as? String ?? "")
        }
    }
}

extension EndToEnd {
    /// An attacker's tries at the events to the app's backend, through the public surface only.
    @Suite struct AttackEvents {
        /// The Swift check exactly as docs/API.md gives it.
        static func verified(body: [UInt8], header: String, secret: String, tolerance: TimeInterval = 300) -> Bool {
            var fields: [Substring: Substring] = [:]
            for part in header.split(separator: ",") {
                let pair = part.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { fields[pair[0]] = pair[1] }
            }
            guard let t = fields["t"], let seconds = TimeInterval(t),
                abs(Date().timeIntervalSince1970 - seconds) <= tolerance,
                let hex = fields["v1"], hex.count == 64
            else { return false }
            let signature = stride(from: 0, to: 64, by: 2).compactMap { offset -> UInt8? in
                let start = hex.index(hex.startIndex, offsetBy: offset)
                return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
            }
            return signature.count == 32
                && HMAC<SHA256>.isValidAuthenticationCode(
                    signature, authenticating: Array(t.utf8) + [UInt8(ascii: ".")] + body,
                    using: SymmetricKey(data: Array(secret.utf8)))
        }

        static let secretA = "attack-secret-A-0123456789abcdef"
        static let secretB = "attack-secret-B-fedcba9876543210"
        static let canary = "canary-Secret-9d8e7f6a5b4c3b2a1"

        static func gateway(policy: String = "transfer", events: String) throws -> VerifyDeployment {
            try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, delivery: "stream",
                extra: """
                    accounts:
                      asserted_by: [web-server, signed]
                      secret: \(Accounts.secret)
                      restore_policy: \(policy)
                    """ + "\n" + events)
        }

        /// A config whose routes record purchases (so the events section is read), without listening.
        static func checkedBase() -> String {
            var setup = GatewaySetup()
            setup.routes.append(("/v1/verify", "verify"))
            setup.extra = """
                apple:
                  bundle_ids: [\(SampleContent.bundleId)]
                  production_url: https://buy.itunes.apple.com/verifyReceipt
                  sandbox_url: https://sandbox.itunes.apple.com/verifyReceipt

                """
            return Deployment.config(setup, listenLine: "  listen: 127.0.0.1:9000\n")
        }

        static func eventsList(_ gateway: VerifyDeployment) throws -> (CommandLine.Outcome, [[String: Any]]) {
            let setup = gateway.deployment.setup
            let listed = try CommandLine.run(
                ["events", "list", "--config", gateway.deployment.configFile.path, "--since", "1h"],
                binary: setup.binary, environment: setup.environment)
            let events = listed.output.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            return (listed, events)
        }

        /// Two endpoints with their own secrets on one receiver; one takes Production refunds only. Client strings
        /// (account ids with quotes, JSON, line breaks) are escaped; each delivery verifies under its endpoint's
        /// secret only; tampering fails the documented check.
        @Test func eachEndpointGetsOnlyWhatItTakesSignedUnderItsOwnSecretAndClientStringsCannotInjectJSONOrHeaders()
            throws
        {
            let receiver = try RawEventReceiver()
            defer { receiver.remove() }
            let gateway = try Self.gateway(
                events: """
                    events:
                      first_retry_s: 1
                      timeout_s: 2
                      poll_ms: 100
                      endpoints:
                        everything:
                          url: "http://127.0.0.1:\(receiver.port)/everything"
                          secret: \(Self.secretA)
                        refunds:
                          url: "http://127.0.0.1:\(receiver.port)/refunds"
                          secret: \(Self.secretB)
                          types: [purchase.revoked]
                          environments: [Production]

                    """)
            defer { gateway.stop() }

            // A Sandbox purchase and its refund; a Production purchase and its refund.
            let sandbox = Accounts.id()
            let production = Accounts.id()
            let sandboxIssue = try SignedTransactions.signed(SampleContent.issueId, sandbox)
            let productionIssue = try SignedTransactions.signed(
                SampleContent.issueId, production, more: ["environment": "Production"])
            let bought = try Accounts.post("verify", [sandboxIssue], as: "alice", to: gateway)
            #expect(bought.status == 200, "\(bought.text)")
            let boughtProd = try Accounts.post("verify", [productionIssue], as: "alice", to: gateway)
            #expect(boughtProd.status == 200, "\(boughtProd.text)")
            let refundS = try SignedTransactions.signed(SampleContent.issueId, sandbox, revoked: true)
            #expect(try Notifications.post("REFUND", transaction: refundS, to: gateway).status == 200)
            let refundP = try SignedTransactions.signed(
                SampleContent.issueId, production, revoked: true, more: ["environment": "Production"])
            let refundedP = try Notifications.post(
                "REFUND", transaction: refundP, environment: "Production", to: gateway)
            #expect(refundedP.status == 200, "\(refundedP.text)")

            // Hostile account ids (signed assertions: the client chooses the string).
            let hostile = [
                #"mallory","account_id":"alice","type":"purchase.revoked"#,
                "eve\r\nX-Injected: yes\r\n\r\n{}",
                "zoë\u{2028}</script><\\u0000>",
            ]
            var hostileOriginals: [String: String] = [:]
            for account in hostile {
                let original = Accounts.id()
                let issue = try SignedTransactions.signed(SampleContent.issueId, original)
                let answer = try Accounts.post("verify", [issue], as: account, to: gateway)
                if answer.status == 200 { hostileOriginals[original] = account }
            }
            // A hostile X-Request-Id, which may end up in data.request_id.
            let requestIdOriginal = Accounts.id()
            let requestIdAnswer = try gateway.deployment.request(
                "/v1/verify", method: "POST",
                headers: [
                    Accounts.asserting("alice"), ("X-Request-Id", #"r1","account_id":"bob"#),
                ],
                body: SignedTransactions.body([try SignedTransactions.signed(SampleContent.issueId, requestIdOriginal)])
            )
            #expect(requestIdAnswer.status == 200, "\(requestIdAnswer.text)")

            // Everything delivered: both endpoints drained.
            var status: [String: Any] = [:]
            #expect(
                ManagedProcess.poll(for: .seconds(40)) {
                    status = (try? gateway.deployment.request("/v1/status").json) ?? [:]
                    let endpoints = status["events"] as? [[String: Any]] ?? []
                    return endpoints.count == 2 && endpoints.allSatisfy { $0["pending"] as? Int == 0 }
                }, "\(status)")
            let attempts = receiver.attempts
            let everything = attempts.filter { $0.path == "/everything" }
            let refunds = attempts.filter { $0.path == "/refunds" }
            #expect(attempts.allSatisfy { $0.path == "/everything" || $0.path == "/refunds" })

            // The filter: only the Production refund.
            #expect(refunds.map(\.type) == ["purchase.revoked"], "\(refunds.map { ($0.type, $0.original) })")
            #expect(refunds.map(\.original) == [production])
            #expect(refunds.allSatisfy { $0.event["environment"] as? String == "Production" })
            #expect(everything.filter { $0.original == sandbox }.map(\.type).contains("purchase.revoked"))
            #expect(everything.filter { $0.original == production }.map(\.type).contains("purchase.revoked"))

            // Signatures: each under its own endpoint's secret only; tampering fails.
            for attempt in everything + refunds {
                let signatures = attempt.header("StoreGate-Signature")
                #expect(signatures.count == 1, "\(attempt.headers)")
                let header = signatures.first ?? ""
                let own = attempt.path == "/everything" ? Self.secretA : Self.secretB
                let other = attempt.path == "/everything" ? Self.secretB : Self.secretA
                #expect(Self.verified(body: attempt.body, header: header, secret: own), "\(header)")
                #expect(!Self.verified(body: attempt.body, header: header, secret: other))
                var tampered = attempt.body
                tampered[tampered.count / 2] ^= 0x01
                #expect(!Self.verified(body: tampered, header: header, secret: own))
                #expect(!Self.verified(body: attempt.body + [UInt8(ascii: " ")], header: header, secret: own))
                // A captured delivery replayed long after: the documented check refuses it.
                #expect(!Self.verified(body: attempt.body, header: header, secret: own, tolerance: -1))
                #expect(attempt.header("StoreGate-Event-Id") == [attempt.id])
                #expect(attempt.header("Content-Type").first?.hasPrefix("application/json") == true)
                #expect(attempt.header("X-Injected").isEmpty, "\(attempt.headers)")
                // Every key once: nothing a client sent added a key.
                let raw = String(decoding: attempt.body, as: UTF8.self)
                for key in ["account_id", "type", "original_transaction_id", "product_id", "environment", "store"] {
                    #expect(raw.components(separatedBy: "\"\(key)\":").count == 2, "\(key) in \(raw)")
                }
            }

            // The hostile account ids arrive as the exact strings, never as another account's.
            for (original, account) in hostileOriginals {
                let its = everything.filter { $0.original == original }
                #expect(!its.isEmpty)
                for attempt in its {
                    let id = attempt.event["account_id"]
                    #expect(
                        id is NSNull || id as? String == account, "\(String(decoding: attempt.body, as: UTF8.self))")
                }
            }
            for attempt in everything where attempt.original == requestIdOriginal {
                #expect(attempt.event["account_id"] is NSNull || attempt.event["account_id"] as? String == "alice")
            }
        }

        /// Requests that fail write no event: a forged assertion, a transaction of another app, a malformed body,
        /// a request mixing a good transaction with a bad one, a claim refused under `keep`.
        @Test func aRefusedRequestWritesNoEvent() throws {
            let gateway = try Self.gateway(policy: "keep", events: "")
            defer { gateway.stop() }
            let (_, before) = try Self.eventsList(gateway)
            #expect(before.isEmpty)

            let held = Accounts.id()
            let heldIssue = try SignedTransactions.signed(SampleContent.issueId, held)
            #expect(try Accounts.post("verify", [heldIssue], as: "alice", to: gateway).status == 200)

            var refused: [(what: String, originals: [String], status: Int)] = []
            // Bob claims Alice's purchase under keep, together with a new one of his.
            let fresh = Accounts.id()
            let mixedClaim = try Accounts.post(
                "restore-sync", [heldIssue, try SignedTransactions.signed(SampleContent.issueId, fresh)], as: "bob",
                to: gateway)
            refused.append(("keep claim with a new purchase", [fresh], mixedClaim.status))
            let bobHolds = try Accounts.holdings("bob", in: gateway)
            #expect(
                mixedClaim.status == 200 || bobHolds.isEmpty,
                "answered \(mixedClaim.status) \(mixedClaim.text) yet bob now holds \(bobHolds)")
            // A forged assertion.
            let forgedOriginal = Accounts.id()
            let forged = try gateway.deployment.request(
                "/v1/verify", method: "POST",
                headers: [Accounts.asserting("alice", secret: "not-the-secret-0123456789")],
                body: SignedTransactions.body([try SignedTransactions.signed(SampleContent.issueId, forgedOriginal)]))
            refused.append(("forged assertion", [forgedOriginal], forged.status))
            // Another app's transaction beside a good one.
            let good = Accounts.id()
            let otherApp = Accounts.id()
            let mixed = try Accounts.post(
                "verify",
                [
                    try SignedTransactions.signed(SampleContent.issueId, good),
                    try SignedTransactions.signed(SampleContent.issueId, otherApp, bundleId: "com.evil.app"),
                ], as: "carol", to: gateway)
            refused.append(("good beside another app's", [good, otherApp], mixed.status))
            // Malformed bodies.
            let malformed = try gateway.deployment.request(
                "/v1/verify", method: "POST", headers: [Accounts.asserting("dave")],
                body: Array(#"{"signed-transactions": [1, {"a": "b"}]}"#.utf8))
            refused.append(("malformed", [], malformed.status))
            // A refund notification for a transaction of another app.
            let foreign = Accounts.id()
            let foreignRefund = try SignedTransactions.signed(
                SampleContent.issueId, foreign, revoked: true, bundleId: "com.evil.app")
            let notified = try Notifications.post("REFUND", transaction: foreignRefund, to: gateway)
            refused.append(("another app's refund", [foreign], notified.status))

            let (listed, events) = try Self.eventsList(gateway)
            #expect(listed.status == 0, "\(listed.errors)")
            for (what, originals, status) in refused where status != 200 {
                let written = events.filter { originals.contains($0["original_transaction_id"] as? String ?? "") }
                #expect(
                    written.isEmpty, "\(what) was refused (\(status)) yet wrote \(written.map { $0["type"] ?? "" })")
            }
            // No one but Alice is bound to her purchase.
            let heldEvents = events.filter { $0["original_transaction_id"] as? String == held }
            #expect(heldEvents.allSatisfy { $0["account_id"] is NSNull || $0["account_id"] as? String == "alice" })
            #expect(heldEvents.map { $0["type"] as? String ?? "" } == ["purchase.recorded", "account.binding_changed"])
        }

        /// https only, except loopback: URLs that look like loopback but are not.
        @Test func onlyHttpsOrTrueLoopbackURLsPassCheckConfig() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let base = Self.checkedBase()
            func check(_ url: String) throws -> (Int32?, String) {
                let file = folder.appendingPathComponent("check-\(UUID().uuidString.prefix(6)).yaml")
                try
                    (base
                    + "events:\n  endpoints:\n    backend:\n      url: '\(url)'\n      secret: \(Self.canary)\n")
                    .write(to: file, atomically: true, encoding: .utf8)
                let process = try ManagedProcess(
                    Binaries.storegate.path, ["check-config", "--config", file.path],
                    logFile: folder.appendingPathComponent("check-\(UUID().uuidString).log"))
                return (process.waitForExit(within: .seconds(20)), process.log)
            }
            let refused = [
                "http://example.com/events", "http://127.0.0.1@example.com/events",
                "http://localhost@example.com/events", "http://127.0.0.1:80@example.com/events",
                "http://localhost.example.com/events", "http://127.0.0.1.nip.io/events",
                "http://[::1]@example.com/events", "http://0.0.0.0/events", "ftp://127.0.0.1/events",
                "file:///etc/passwd", "gopher://127.0.0.1:6379/_FLUSHALL", "//example.com/events",
                "http:example.com", "HTTP://example.com/events", "http://[::ffff:8.8.8.8]/events",
            ]
            for url in refused {
                let (status, output) = try check(url)
                #expect(status == 1, "\(url) was accepted:\n\(output)")
                #expect(output.contains("events.endpoints.backend.url"), "\(url):\n\(output)")
                #expect(!output.contains(Self.canary), "the secret leaked:\n\(output)")
            }
            // Accepted, and loopback to an RFC 3986 parser (a WHATWG one would read example.com in the first):
            // "http://example.com\\@127.0.0.1/events", "http://127.0.0.1#@example.com/" (a fragment).
            for url in [
                "https://example.com/events", "http://127.0.0.1:9/events", "http://localhost:9/e", "http://[::1]:9/",
            ] {
                let (status, output) = try check(url)
                #expect(status == 0, "\(url) was refused:\n\(output)")
                #expect(!output.contains(Self.canary), "the secret leaked:\n\(output)")
            }
        }

        /// A secret too short, or wrong in other keys: check-config names the key, never the value.
        @Test func checkConfigNeverPrintsASecret() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let base = Self.checkedBase()
            let short = "shortCanary7"
            let cases: [(String, [String: String])] = [
                (
                    "events:\n  endpoints:\n    backend:\n      url: \"https://e.example/\"\n      secret: \(short)\n",
                    [:]
                ),
                (
                    "events:\n  endpoints:\n    backend:\n      url: \"https://e.example/\"\n",
                    [
                        "STOREGATE_EVENTS_ENDPOINTS_BACKEND_SECRET": short
                    ]
                ),
                (
                    "",
                    [
                        "STOREGATE_EVENTS_ENDPOINTS_CRM_URL": "http://example.com/x",
                        "STOREGATE_EVENTS_ENDPOINTS_CRM_SECRET": Self.canary,
                    ]
                ),
                (
                    "events:\n  endpoints:\n    backend:\n      url: \"https://e.example/\"\n      secret: [\(Self.canary)]\n",
                    [:]
                ),
                (
                    "events:\n  endpoints:\n    Bad-Name:\n      url: \"https://e.example/\"\n      secret: \(Self.canary)\n      types: [purchase.bogus]\n",
                    [:]
                ),
                (
                    "events:\n  endpoints:\n    backend:\n      url: \"https://e.example/\"\n      secret: \(Self.canary)\n      scret: \(Self.canary)\n",
                    [:]
                ),
            ]
            for (events, environment) in cases {
                let file = folder.appendingPathComponent("check-\(UUID().uuidString.prefix(6)).yaml")
                try (base + events).write(to: file, atomically: true, encoding: .utf8)
                let process = try ManagedProcess(
                    Binaries.storegate.path, ["check-config", "--config", file.path], environment: environment,
                    logFile: folder.appendingPathComponent("check-\(UUID().uuidString).log"))
                let status = process.waitForExit(within: .seconds(20))
                let output = process.log
                // A misspelt key is a warning (exit 0), every other case an error.
                #expect(status == (events.contains("scret:") ? 0 : 1), "\(events) \(environment):\n\(output)")
                #expect(!output.contains(short) && !output.contains(Self.canary), "a secret leaked:\n\(output)")
            }
        }

        /// A receiver that redirects, hangs, or answers 64 MiB with a 60 kB header: no redirect followed, the
        /// gateway's answers stay fast, nothing of the answer reaches the logs or the ledger, and the secret is in
        /// no output an operator or support sees.
        @Test func aHostileReceiverNeitherSlowsTheGatewayNorGetsIntoItsLogsAndTheSecretNeverShows() throws {
            let receiver = try RawEventReceiver(mode: "redirect")
            defer { receiver.remove() }
            let gateway = try Self.gateway(
                events: """
                    events:
                      first_retry_s: 1
                      timeout_s: 2
                      poll_ms: 100
                      endpoints:
                        backend:
                          url: "http://127.0.0.1:\(receiver.port)/events"
                          secret: \(Self.canary)

                    """)
            defer { gateway.stop() }
            func timedBuy(_ account: String) throws -> (String, Duration) {
                let original = Accounts.id()
                let issue = try SignedTransactions.signed(SampleContent.issueId, original)
                let started = ContinuousClock.now
                let answer = try Accounts.post("verify", [issue], as: account, to: gateway)
                #expect(answer.status == 200, "\(answer.text)")
                return (original, ContinuousClock.now - started)
            }
            var originals: [String] = []
            var slowest = Duration.zero

            // Redirects are not followed, nor taken as an acknowledgement.
            let (first, took) = try timedBuy("rita")
            originals.append(first)
            slowest = max(slowest, took)
            #expect(ManagedProcess.poll(for: .seconds(20)) { receiver.attempts.count >= 2 })
            #expect(receiver.attempts.allSatisfy { $0.path == "/events" }, "\(receiver.attempts.map(\.path))")
            let afterRedirects = try gateway.deployment.request("/v1/metrics").text
            #expect(!afterRedirects.contains(#"storegate_events_total{endpoint="backend",outcome="delivered"} 1"#))

            // Hanging: the gateway's own answers do not wait for it.
            try receiver.set("hang")
            let hangStart = receiver.attempts.count
            for _ in 0..<3 {
                let (original, took) = try timedBuy("rita")
                originals.append(original)
                slowest = max(slowest, took)
            }
            #expect(ManagedProcess.poll(for: .seconds(20)) { receiver.attempts.count > hangStart })
            for _ in 0..<2 {
                let (original, took) = try timedBuy("sam")
                originals.append(original)
                slowest = max(slowest, took)
            }

            // A huge failing answer.
            try receiver.set("hugefail")
            let hugeStart = receiver.attempts.count
            #expect(ManagedProcess.poll(for: .seconds(30)) { receiver.attempts.count >= hugeStart + 2 })
            let (another, tookHuge) = try timedBuy("tess")
            originals.append(another)
            slowest = max(slowest, tookHuge)
            #expect(slowest < .seconds(2), "a verify took \(slowest) while the receiver misbehaved")

            // Back to normal: everything arrives, in order per purchase.
            try receiver.set("ok")
            var metrics = ""
            #expect(
                ManagedProcess.poll(for: .seconds(60)) {
                    metrics = (try? gateway.deployment.request("/v1/metrics").text) ?? ""
                    return metrics.contains(#"storegate_events_pending{endpoint="backend"} 0"#)
                }, "\(metrics)")
            let attempts = receiver.attempts
            for original in originals {
                var firstSeen: [String] = []
                for attempt in attempts where attempt.original == original && !firstSeen.contains(attempt.type) {
                    firstSeen.append(attempt.type)
                }
                #expect(firstSeen == ["purchase.recorded", "account.binding_changed"], "\(original): \(firstSeen)")
            }
            for attempt in attempts {
                #expect(
                    Self.verified(
                        body: attempt.body, header: attempt.header("StoreGate-Signature").first ?? "",
                        secret: Self.canary, tolerance: 600))
            }

            // Any 2xx acknowledges: one with a 60 kB header, one with a 64 MiB body, one with both.
            for mode in ["junkok", "bigok", "hugeok"] {
                try receiver.set(mode)
                let (original, took) = try timedBuy("uma")
                #expect(took < .seconds(2))
                let acknowledged = ManagedProcess.poll(for: .seconds(20)) {
                    metrics = (try? gateway.deployment.request("/v1/metrics").text) ?? ""
                    return metrics.contains(#"storegate_events_pending{endpoint="backend"} 0"#)
                }
                let tries = receiver.attempts.filter { $0.original == original }.count
                let lines = gateway.logs.split(separator: "\n").filter { $0.contains("event") }.suffix(4)
                    .map { String($0.prefix(400)) }
                #expect(acknowledged, "a 200 (\(mode)) was not taken: \(tries) tries; \(lines)")
                try receiver.set("ok")
                _ = ManagedProcess.poll(for: .seconds(20)) {
                    ((try? gateway.deployment.request("/v1/metrics").text) ?? "").contains(
                        #"storegate_events_pending{endpoint="backend"} 0"#)
                }
            }

            // Nothing of the answers in the logs or the ledger.
            let logs = gateway.logs
            #expect(!logs.contains(String(repeating: "j", count: 512)), "the receiver's header is in the logs")
            #expect(!logs.contains(String(repeating: "x", count: 512)), "the receiver's body is in the logs")
            #expect(logs.utf8.count < 2_000_000, "the logs grew to \(logs.utf8.count) bytes")
            for suffix in ["", "-wal"] {
                let ledger = (try? Data(contentsOf: URL(fileURLWithPath: gateway.ledgerPath + suffix))) ?? Data()
                #expect(ledger.count < 32_000_000, "ledger\(suffix) is \(ledger.count) bytes")
                #expect(ledger.range(of: Data(repeating: UInt8(ascii: "x"), count: 4096)) == nil)
                #expect(ledger.range(of: Data(repeating: UInt8(ascii: "j"), count: 4096)) == nil)
            }

            // The secret is nowhere an operator or support looks.
            #expect(!logs.contains(Self.canary), "the secret is in the logs")
            let surfaces = [
                "/v1/status", "/v1/metrics", "/v1/support?q=\(first)",
            ]
            for path in surfaces {
                let answer = try gateway.deployment.request(path)
                #expect(!answer.text.contains(Self.canary), "\(path) shows the secret")
            }
            let setup = gateway.deployment.setup
            let config = gateway.deployment.configFile.path
            let outputs = [
                try SupportLookup.lookUp(gateway, ["--transaction-id", first]),
                try SupportLookup.lookUp(gateway, ["--transaction-id", first, "--json"]),
                try Self.eventsList(gateway).0,
                try CommandLine.run(
                    ["check-config", "--config", config], binary: setup.binary,
                    environment: setup.environment),
                try CommandLine.run(
                    ["events", "replay", "--config", config, "--since", "1h", "--endpoint", "nope"],
                    binary: setup.binary, environment: setup.environment),
            ]
            for outcome in outputs {
                #expect(!(outcome.output + outcome.errors).contains(Self.canary), "\(outcome.output)\(outcome.errors)")
            }
        }
    }
}
