import Foundation
import Testing

extension EndToEnd {
    /// What an operator sees: `/v1/metrics` for Prometheus and one log line per request.
    @Suite struct Observability {
        /// The value of the exposition line that starts with `series` (name and labels), if any.
        static func value(_ series: String, in text: String) -> Double? {
            text.split(separator: "\n").first { $0.hasPrefix(series + " ") }
                .flatMap { Double($0.dropFirst(series.count + 1)) }
        }

        @Test func prometheusSeesRequestsAppleCallsCacheErrorsDownloadsAndWorkers() throws {
            let gateway = try VerifyDeployment(server: ["workers": "6"])
            defer { gateway.stop() }
            let receipt = try Download.buyer(gateway)
            let token = try Download.token(gateway, receipt: receipt)
            #expect(try gateway.verify(receipt).status == 200)  // the cached verdict
            let bad = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: Array(#"{"receipt-data":"%%"}"#.utf8))
            #expect(bad.status == 400)
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            #expect(try gateway.deployment.request("/no/such/route").status == 404)

            // A worker counts its request just after the answer leaves; on a loaded machine the scrape can
            // come first, so it is repeated (bounded) until the download's worker has finished.
            var scrape = try gateway.deployment.request("/v1/metrics")
            for _ in 0..<50 {
                let settled =
                    Self.value(#"storegate_requests_total{route="/v1/download",status="200"}"#, in: scrape.text) == 1
                    && Self.value("storegate_workers_busy", in: scrape.text) == 1
                if settled { break }
                Thread.sleep(forTimeInterval: 0.05)
                scrape = try gateway.deployment.request("/v1/metrics")
            }
            #expect(scrape.status == 200)
            #expect(scrape.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            let text = scrape.text
            let expected: [(String, Double)] = [
                (#"storegate_requests_total{route="/v1/verify",status="200"}"#, 2),
                (#"storegate_requests_total{route="/v1/verify",status="400"}"#, 1),
                (#"storegate_requests_total{route="/v1/download",status="200"}"#, 1),
                (#"storegate_requests_total{route="unrouted",status="404"}"#, 1),
                (#"storegate_request_duration_seconds_count{route="/v1/verify"}"#, 3),
                (#"storegate_errors_total{code="bad_request"}"#, 1),
                (#"storegate_errors_total{code="not_found"}"#, 1),
                (#"storegate_apple_calls_total{host="Production",outcome="verdict"}"#, 1),
                (#"storegate_apple_call_duration_seconds_count{host="Production"}"#, 1),
                (#"storegate_verification_cache_lookups_total{result="miss"}"#, 1),
                (#"storegate_verification_cache_lookups_total{result="hit"}"#, 1),
                (#"storegate_downloads_granted_total{delivery="x-accel"}"#, 1),
                ("storegate_workers", 6),
                ("storegate_workers_busy", 1),  // the scrape itself
            ]
            for (series, value) in expected {
                #expect(Self.value(series, in: text) == value, "\(series) in\n\(text)")
            }
            #expect((Self.value("process_resident_memory_bytes", in: text) ?? 0) > 1_000_000)
            #expect((Self.value("process_open_fds", in: text) ?? 0) > 3)
            #expect(text.contains("# TYPE storegate_request_duration_seconds histogram"))
        }

        @Test func saturationIsCountedWhenEveryWorkerIsBusy() throws {
            let gateway = try VerifyDeployment(server: ["workers": "2"])
            defer { gateway.stop() }
            let slow = try gateway.receipt(transactions: AppleTrouble.issue, extra: ["steps": [["delay_ms": 800]]])
            // Two slow verifies hold both workers for 800 ms: the watchdog sees them all busy.
            let answers = concurrently(2) { _ in try? gateway.verify(slow).status }
            #expect(answers == [200, 200])
            let text = try gateway.deployment.request("/v1/metrics").text
            #expect((Self.value("storegate_saturation_events_total", in: text) ?? 0) >= 1, "\(text)")
        }

        @Test func everyRequestGetsOneLogLineWithoutTheReceipt() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipt = try Download.buyer(gateway)
            let answer = try gateway.verify(receipt)
            let id = try #require(answer.header("X-Request-Id"))
            // The line is written once the answer is out, so it may land just after the client has it (and
            // after the verifier's own lines with the same id).
            let requestLine = "msg=request "
            #expect(
                ManagedProcess.poll(for: .seconds(5)) {
                    gateway.deployment.gateway.log.split(separator: "\n").contains {
                        $0.contains(requestLine) && $0.contains("request-id=\(id)")
                    }
                })
            let lines = gateway.deployment.gateway.log.split(separator: "\n").filter { $0.contains("request-id=\(id)") }
            let line = try #require(lines.first { $0.contains(requestLine) }, "\(lines)")
            for field in [
                "level=info", "method=POST", "route=/v1/verify", "status=200", "environment=Production",
                "product=\(SampleContent.issueId),\(SampleContent.monthlyId)", "duration_ms=", "cached=false",
                "receipt=", "recorded=", "entitlements=2",
            ] {
                #expect(line.contains(field), "\(field) missing from \(line)")
            }
            #expect(lines.filter { $0.contains(requestLine) }.count == 1)
            #expect(!gateway.logs.contains(Receipt.data(receipt)))
            #expect(!gateway.logs.contains(try #require(answer.downloadToken(for: SampleContent.issueId))))
        }

        /// Request lines wait `log.flush_ms` to be written together (a minute here, so nothing goes out on
        /// its own): sixteen clients at once still get one whole line per request, and a stopping gateway
        /// writes what it gathered before its last line.
        @Test func gatheredRequestLinesAreWholeAndAStoppingGatewayWritesThem() throws {
            let deployment = try Deployment(GatewaySetup(environment: ["STOREGATE_LOG_FLUSH_MS": "60000"]))
            defer { deployment.stop() }
            let ids = concurrently(16) { _ in
                (0..<10).compactMap { _ in try? deployment.request("/v1/catalog").header("X-Request-Id") }
            }.flatMap { $0 }
            #expect(ids.count == 160)
            #expect(!deployment.gateway.log.contains("msg=request"), "written before the interval")
            deployment.gateway.signal(SIGTERM)
            #expect(deployment.gateway.waitForExit(within: .seconds(10)) == 0)
            let lines = deployment.gateway.log.split(separator: "\n")
            let requestLines = lines.filter { $0.contains("msg=request ") }
            // The readiness probe's request is there too.
            #expect(requestLines.count == 161)
            let broken = requestLines.filter {
                !$0.hasPrefix("ts=") || $0.split(separator: " ").last?.hasPrefix("status=") != true
            }
            #expect(broken.isEmpty, "\(broken)")
            for id in ids {
                let matching = requestLines.filter { $0.contains(" request-id=\(id) ") }
                #expect(matching.count == 1 && matching[0].hasSuffix(" route=/v1/catalog status=200"), "\(matching)")
            }
            let lastRequest = try #require(lines.lastIndex { $0.contains("msg=request ") })
            let stopped = try #require(lines.lastIndex { $0.contains("msg=stopped") }, "\(lines.suffix(3))")
            #expect(lastRequest < stopped)
        }

        @Test func slowRequestsAreLoggedEvenWithRequestLinesAndInfoOff() throws {
            let gateway = try VerifyDeployment(environment: [
                "STOREGATE_LOG_REQUESTS": "false", "STOREGATE_LOG_SLOW_REQUEST_MS": "300",
                "STOREGATE_LOG_LEVEL": "warning",
            ])
            defer { gateway.stop() }
            let quick = try gateway.receipt(transactions: AppleTrouble.issue)
            let slow = try gateway.receipt(transactions: AppleTrouble.issue, extra: ["steps": [["delay_ms": 500]]])
            let quickId = try #require(try gateway.verify(quick).header("X-Request-Id"))
            let slowId = try #require(try gateway.verify(slow).header("X-Request-Id"))
            #expect(
                ManagedProcess.poll(for: .seconds(5)) {
                    gateway.deployment.gateway.log.contains("request-id=\(slowId)")
                })
            let log = gateway.deployment.gateway.log
            #expect(!log.contains("request-id=\(quickId)"), "\(log)")
            #expect(log.contains("level=warning msg=\"slow request\""), "\(log)")
            #expect(
                log.split(separator: "\n").contains { $0.contains("request-id=\(slowId)") && $0.contains("status=200") }
            )
            #expect(!log.contains("storegate serving"), "info lines are off at level warning")
        }
    }
}
