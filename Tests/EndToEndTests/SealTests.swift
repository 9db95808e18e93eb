import Crypto
import Foundation
import Testing

extension EndToEnd {
    /// The seal at run time, through real nginx: content leaves only through the entitlement of the request it
    /// was verified for, and a capability acts only for the route and request it was handed for, whatever a
    /// handler module answers (the test gateway's attacking handlers, some of them a reviewer's).
    @Suite struct Seal {
        /// The headers that would have a web server send a file, or serve a path, in the gateway's place.
        static let webServerHeaders = [
            "X-Accel-Redirect", "X-Sendfile", "X-Sendfile2", "X-Sendfile-Temporary", "X-LIGHTTPD-send-file",
            "X-LiteSpeed-Location", "X-Reproxy-URL", "Location",
        ]

        @Test(arguments: ["", "?error"])
        func aPlainHandlersPointerAtContentNeverReachesTheWebServer(_ query: String) throws {
            let deployment = try Deployment(
                GatewaySetup(binary: Binaries.testbed, routes: [("/v1/accel-header", "accel-header")]))
            defer { deployment.stop() }
            let answer = try deployment.request("/v1/accel-header" + query)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(SampleContent.sha256(answer.body) != SampleContent.issueSHA256, "nginx sent the file")
            for name in Self.webServerHeaders {
                #expect(answer.header(name) == nil, "\(name) reached the client: \(answer.headers)")
            }
            #expect(answer.header("X-Kept") == "yes", "the handler's other headers go out")

            // Straight to the FastCGI socket: no line of the answer names a file, and a header name carries no
            // colon of its own (nginx reads a name up to the first one).
            let raw = try Self.rawAnswer(
                "env REQUEST_METHOD=GET REQUEST_URI=/v1/accel-header QUERY_STRING=\(query.dropFirst())", deployment)
            let head = raw.components(separatedBy: "\r\n\r\n").first ?? raw
            for line in head.components(separatedBy: "\r\n") {
                let name = line.prefix { $0 != ":" }.lowercased()
                #expect(!name.contains(" "), "\(line)")
                #expect(!["x-accel-redirect", "x-sendfile", "x-sendfile2", "location"].contains(name), "\(line)")
                #expect(!["x-lighttpd", "x-litespeed", "x-reproxy"].contains { name.hasPrefix($0) }, "\(line)")
            }
            #expect(head.components(separatedBy: "\r\n").filter { $0.hasPrefix("Status:") }.count == 1, "\(head)")
        }

        /// A status a web server may read as another (Apache's `atoi` makes 4294967496 a 200), or an interim one
        /// (nginx relayed a 101 with its body), is not sent, in an answer or in a thrown error.
        @Test(arguments: ["status", "error-status", "interim", "error-interim"])
        func aStatusThatIsNotAnHTTPStatusIsNeverSent(_ query: String) throws {
            let deployment = try Deployment(
                GatewaySetup(binary: Binaries.testbed, routes: [("/v1/accel-header", "accel-header")]))
            defer { deployment.stop() }
            let answer = try deployment.request("/v1/accel-header?" + query)
            #expect(answer.status == 500, "\(answer.text)")
            #expect(answer.errorCode == "internal_error", "\(answer.text)")
            let raw = try Self.rawAnswer(
                "env REQUEST_METHOD=GET REQUEST_URI=/v1/accel-header QUERY_STRING=\(query)", deployment)
            #expect(raw.hasPrefix("Status: 500"), "\(raw.prefix(200))")
            #expect(!raw.contains("4294967496"), "\(raw.prefix(200))")
        }

        /// A handler that goes around the API to the operating system and writes its own FastCGI header block,
        /// with an X-Accel-Redirect, onto the web server's connections (a sixth reviewer's way; nothing in one
        /// process stops it) gets no file out: the deploy/ site lets X-Accel-Redirect through from content routes'
        /// locations only.
        @Test func aHeaderBlockWrittenPastTheGatewayGetsNoFileOutOfNginx() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed, routes: [("/v1/raw-record", "raw-record")],
                    server: ["workers": "2"], keepAlive: false))
            defer { deployment.stop() }
            let answer = try deployment.request("/v1/raw-record")
            #expect(SampleContent.sha256(answer.body) != SampleContent.issueSHA256, "nginx sent the file")
            #expect(answer.header("X-Accel-Redirect") == nil)
        }

        @Test(arguments: ["x-accel", "stream"])
        func contentKeptForAnotherRequestIsRefused(_ delivery: String) throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed,
                    routes: [("/v1/stashing-content", "stashing-content"), ("/v1/replay", "replay")],
                    extra: "fixture_verifier:\n  enabled: true\n", delivery: delivery))
            defer { deployment.stop() }
            let path = "/v1/stashing-content/\(SampleContent.issueId)"
            let entitled = [("Authorization", "Bearer grant:\(SampleContent.issueId)")]
            let first = try deployment.request(path, headers: entitled)
            #expect(first.status == 200, "\(first.text)")
            #expect(SampleContent.sha256(first.body) == SampleContent.issueSHA256)

            // The handler answers the next requests with the answer it kept: a caller entitled to the product, and
            // a caller of a plain route that verifies nothing.
            for (later, headers) in [(path, entitled), ("/v1/replay", [])] {
                let replayed = try deployment.request(later, headers: headers)
                #expect(replayed.status == 500, "\(later): \(replayed.status)")
                #expect(replayed.errorCode == "internal_error")
                #expect(SampleContent.sha256(replayed.body) != SampleContent.issueSHA256)
            }
            let notEntitled = try deployment.request(path, headers: [("Authorization", "Bearer other")])
            #expect(notEntitled.status == 403)
            let refusal = "a handler answered with content made for another request; refused"
            #expect(ManagedProcess.poll(for: .seconds(5)) { deployment.gateway.log.contains(refusal) })
        }

        /// An entitlement kept past its request (a copy in a global `Optional`, which the compiler lets escape)
        /// records no delivery and counts none, asked from a thread of the module's own or on a later request: a
        /// twenty-first reviewer's recorded a delivery every 200 ms.
        @Test(arguments: ["x-accel", "stream"])
        func anEntitlementKeptPastItsRequestRecordsNothing(_ delivery: String) throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed,
                    routes: [("/v1/entitlement-keeper", "entitlement-keeper"), ("/v1/metrics", "metrics")],
                    extra: "fixture_verifier:\n  enabled: true\n", delivery: delivery))
            defer { deployment.stop() }
            let path = "/v1/entitlement-keeper/\(SampleContent.issueId)"
            let entitled = [("Authorization", "Bearer grant:\(SampleContent.issueId)")]
            for _ in 0..<3 {
                let answer = try deployment.request(path, headers: entitled)
                #expect(answer.status == 200, "\(answer.text)")
            }
            let metrics = try deployment.request("/v1/metrics").text
            #expect(
                metrics.contains("storegate_downloads_granted_total{delivery=\"\(delivery)\"} 3\n"),
                "\(metrics.split(separator: "\n").filter { $0.contains("downloads_granted") })")
            let refusal = "a handler asked for content outside the request that was verified; refused"
            #expect(
                ManagedProcess.poll(for: .seconds(5)) {
                    deployment.gateway.log.components(separatedBy: refusal).count - 1 == 4
                }, "\(deployment.gateway.log.suffix(2_000))")
        }

        /// One verified request delivers once: a handler that asks fifty times records one delivery and counts one
        /// download (a twenty-second reviewer's recorded fifty, evidence for refund answers that never happened).
        @Test func oneRequestRecordsOneDeliveryHoweverOftenTheHandlerAsks() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed,
                    routes: [("/v1/repeating-content", "repeating-content"), ("/v1/metrics", "metrics")],
                    extra: "fixture_verifier:\n  enabled: true\n", delivery: "stream"))
            defer { deployment.stop() }
            let answer = try deployment.request(
                "/v1/repeating-content/\(SampleContent.issueId)",
                headers: [("Authorization", "Bearer grant:\(SampleContent.issueId)")])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(SampleContent.sha256(answer.body) == SampleContent.issueSHA256)
            let metrics = try deployment.request("/v1/metrics").text
            #expect(metrics.contains("storegate_downloads_granted_total{delivery=\"stream\"} 1\n"), "\(metrics)")
            let refusal = "a handler asked for content a second time for one request; refused"
            #expect(
                ManagedProcess.poll(for: .seconds(5)) {
                    deployment.gateway.log.components(separatedBy: refusal).count - 1 == 49
                }, "\(deployment.gateway.log.suffix(1_000))")
        }

        @Test(arguments: ["x-accel", "stream"])
        func aContentHandlerCannotAnswerAnotherProduct(_ delivery: String) throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed, routes: [("/v1/upgrade", "upgrade")],
                    extra: "fixture_verifier:\n  enabled: true\n", delivery: delivery))
            defer { deployment.stop() }
            let other = deployment.folder.appendingPathComponent("content/other")
            try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
            try Data("the other, dearer product".utf8).write(to: other.appendingPathComponent("2.bin"))
            let answer = try deployment.request(
                "/v1/upgrade/\(SampleContent.issueId)",
                headers: [("Authorization", "Bearer grant:\(SampleContent.issueId)")])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(SampleContent.sha256(answer.body) == SampleContent.issueSHA256, "another file went out")
        }

        @Test func aCapabilityWorksOnlyForTheRouteItWasHandedTo() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed, routes: [("/v1/parking", "parking"), ("/v1/borrowing", "borrowing")]))
            defer { deployment.stop() }
            #expect(try deployment.request("/v1/parking").status == 200)
            let borrowed = try deployment.request("/v1/borrowing")
            #expect(borrowed.status == 500, "\(borrowed.text)")
            #expect(borrowed.errorCode == "internal_error")
        }

        @Test func aCapabilityActsOnTheRequestBeingAnsweredNeverOnAKeptOne() throws {
            let gateway = try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, moreRoutes: [("/v1/replay-verify", "replay-verify")])
            defer { gateway.stop() }
            let first = try SignedTransactions.signed(SampleContent.issueId, Accounts.id())
            let answer = try gateway.deployment.request(
                "/v1/replay-verify", method: "POST", body: SignedTransactions.body([first]))
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.entitlementProducts == [SampleContent.issueId])
            // The next caller's request is verified with the first caller's context: refused, not answered with
            // the first caller's purchases.
            let second = try gateway.deployment.request("/v1/replay-verify", method: "POST", body: Array("{}".utf8))
            #expect(second.status == 500, "\(second.text)")
            #expect(second.entitlementProducts.isEmpty)
            let refusal = "a handler used a capability outside the request it was handed for; refused"
            #expect(ManagedProcess.poll(for: .seconds(5)) { gateway.logs.contains(refusal) })
        }

        @Test(arguments: ["x-accel", "stream"])
        func contentGoesOutUncacheableByASharedCacheWhateverTheHandlerSays(_ delivery: String) throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed, routes: [("/v1/caching", "caching")],
                    extra: "fixture_verifier:\n  enabled: true\n", delivery: delivery))
            defer { deployment.stop() }
            let path = "/v1/caching/\(SampleContent.issueId)"
            let answer = try deployment.request(
                path, headers: [("Authorization", "Bearer grant:\(SampleContent.issueId)")])
            #expect(answer.status == 200, "\(answer.text)")
            #expect(SampleContent.sha256(answer.body) == SampleContent.issueSHA256)
            #expect(answer.header("Cache-Control") == "private, no-store", "\(answer.headers)")
            for name in [
                "CDN-Cache-Control", "Cloudflare-CDN-Cache-Control", "Surrogate-Control", "Edge-Control", "Expires",
                "Pragma",
            ] {
                #expect(answer.header(name) == nil, "\(name) reached the client: \(answer.headers)")
            }
            #expect(answer.header("Content-Type") == "application/pdf", "the handler's other headers go out")

            // What the gateway gives nginx: one caching header, its own (asked with HEAD, so that a streamed
            // answer is its head alone).
            let raw = try Self.rawAnswer(
                "env REQUEST_METHOD=HEAD REQUEST_URI=\(path) HTTP_AUTHORIZATION='Bearer grant:\(SampleContent.issueId)'",
                deployment)
            let head = (raw.components(separatedBy: "\r\n\r\n").first ?? raw).lowercased()
            let caching = head.components(separatedBy: "\r\n").filter {
                $0.hasPrefix("expires:") || $0.hasPrefix("pragma:") || $0.hasPrefix("surrogate-control:")
                    || $0.hasPrefix("edge-control:") || $0.prefix { $0 != ":" }.hasSuffix("cache-control")
            }
            #expect(caching == ["cache-control: private, no-store"], "\(head)")
        }

        @Test func aHandlersMetricsNeverWriteTheGatewaysSeries() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed,
                    routes: [("/v1/label-forger", "label-forger"), ("/v1/metrics", "metrics")]))
            defer { deployment.stop() }
            #expect(try deployment.request("/v1/label-forger").status == 200)
            let exposition = try deployment.request("/v1/metrics").text
            let forged = exposition.split(separator: "\n").filter { $0.hasSuffix(" 1000") || $0.hasSuffix(" 1000.0") }
            #expect(
                Set(forged.map { $0.prefix { $0 != " " && $0 != "{" } })
                    == [
                        "handler_storegate_downloads_granted_total", "handler_storegate_requests_total",
                        "handler_process_open_fds", "handler_forged_buckets", "handler_forged_quantiles",
                    ], "\(forged)")
            #expect(
                !exposition.contains("\nstoregate_downloads_granted_total"), "the handler made the gateway's series")
            // `le` belongs to a histogram's buckets and `quantile` to a summary's: a scraper refuses the whole
            // exposition when another series carries one.
            #expect(forged.contains { $0.hasPrefix(#"handler_forged_buckets{handler_le="+Inf"}"#) }, "\(forged)")
            #expect(forged.contains { $0.hasPrefix(#"handler_forged_quantiles{handler_quantile="0.5"}"#) }, "\(forged)")
        }

        @Test func nothingAHandlerReflectsOnLeadsToTheConfigTheGatewaysMetricsOrAService() throws {
            let secrets = [VerifyDeployment.tokenSecret, "apple-shared-secret-7d1f", "account-secret-5e0c9a1b2c3d"]
            let gateway = try VerifyDeployment(
                simSecret: secrets[1],
                environment: ["STOREGATE_APPLE_SHARED_SECRET": secrets[1], "STOREGATE_ACCOUNTS_SECRET": secrets[2]],
                extra: "accounts:\n  asserted_by: [signed]\n", moreRoutes: [("/v1/reflecting", "reflecting")])
            defer { gateway.stop() }
            let answer = try gateway.deployment.request("/v1/reflecting")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["visited"] as? Int ?? 0 > 50, "the walk walked: \(answer.text)")
            #expect(answer.json["configReaders"] as? [String] == ["setup.config"], "\(answer.text)")
            #expect(answer.json["metricsFactories"] as? [String] == ["setup.metricsFactory"], "\(answer.text)")
            let functions = answer.json["functions"] as? [String] ?? []
            #expect(functions.filter { $0.hasPrefix("needs") }.isEmpty, "a capability's closure: \(functions)")
            #expect(functions.filter { $0.hasPrefix("module") }.isEmpty, "a module's route builder: \(functions)")
            let strings = answer.json["strings"] as? [String] ?? []
            #expect(strings.contains(SampleContent.issueId), "the walk read the catalog")
            // Where the content lives is the content path's: neither the root nor a product's file.
            #expect(!strings.contains { $0.contains(SampleContent.issuePath) }, "a product's file: \(strings)")
            #expect(!strings.contains { $0.hasSuffix("/content") }, "the content root: \(strings)")
            for secret in secrets { #expect(!strings.contains { $0.contains(secret) }, "a secret was reached") }
            let pointers = answer.json["pointers"] as? [String] ?? []
            #expect(pointers.filter { $0.contains("logger") }.isEmpty, "the gateway's log output: \(pointers)")
        }

        /// A read-only property of the handler API gives a read-only key path: casting one to a writable key path
        /// (which wrote an X-Accel-Redirect line past the header checks) fails.
        @Test func theAPIsReadOnlyPropertiesGiveNoWritableKeyPath() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed,
                    routes: [("/v1/keypath-writer", "keypath-writer"), ("/v1/metrics", "metrics")]))
            defer { deployment.stop() }
            let answer = try deployment.request("/v1/keypath-writer")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["writable"] as? [String] == [], "\(answer.text)")
            #expect(SampleContent.sha256(answer.body) != SampleContent.issueSHA256, "nginx sent the file")
            #expect(answer.header("X-Accel-Redirect") == nil)
            let exposition = try deployment.request("/v1/metrics").text
            #expect(
                !exposition.contains(#"storegate_errors_total{code="ledger_unavailable"} 1"#),
                "a 200 counted as an error")
        }

        /// Even a module that reaches the exchange being answered by its symbol (as an outside package did, which
        /// the registry now refuses) finds nothing by `Mirror` there: not the application, its services or keys.
        @Test func theExchangeShowsNothingToAModuleThatReachedItBySymbol() throws {
            let secrets = [VerifyDeployment.tokenSecret, "apple-shared-secret-7d1f", "account-secret-5e0c9a1b2c3d"]
            let gateway = try VerifyDeployment(
                simSecret: secrets[1],
                environment: ["STOREGATE_APPLE_SHARED_SECRET": secrets[1], "STOREGATE_ACCOUNTS_SECRET": secrets[2]],
                extra: "accounts:\n  asserted_by: [signed]\n", moreRoutes: [("/v1/exchange-mirror", "exchange-mirror")])
            defer { gateway.stop() }
            let answer = try gateway.deployment.request("/v1/exchange-mirror")
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["visited"] as? Int == 1, "the walk went past the exchange: \(answer.text)")
            #expect(answer.json["keyedMACs"] as? [String] == [], "\(answer.text)")
            let strings = answer.json["strings"] as? [String] ?? []
            for secret in secrets { #expect(!strings.contains { $0.contains(secret) }, "a secret was reached") }
        }

        /// Secrets given in the environment are the gateway's copy alone: the process's environment, where any
        /// module could read them, has forgotten every `STOREGATE_…` variable, and libpq's `PG…` ones, by the time
        /// a handler runs.
        @Test func aHandlerFindsNoSecretInTheProcesssEnvironment() throws {
            let secrets = ["apple-shared-secret-7d1f", "account-secret-5e0c9a1b2c3d", "token-secret-from-the-env-0123"]
            let gateway = try VerifyDeployment(
                simSecret: secrets[0],
                environment: [
                    "STOREGATE_APPLE_SHARED_SECRET": secrets[0], "STOREGATE_ACCOUNTS_SECRET": secrets[1],
                    "STOREGATE_TOKENS_SECRET": secrets[2], "PGPASSWORD": "libpq-password-from-the-env-4b",
                ],
                extra: "accounts:\n  asserted_by: [signed]\n", moreRoutes: [("/v1/env-reader", "env-reader")])
            defer { gateway.stop() }
            let answer = try gateway.deployment.request("/v1/env-reader")
            #expect(answer.status == 200, "\(answer.text)")
            // Only what the testbed's environment-changing module set itself (`PGHOSTADDR`) is there.
            #expect(Set(answer.json.keys).isSubset(of: ["PGHOSTADDR"]), "\(answer.text)")
            for secret in secrets + ["libpq-password-from-the-env-4b"] { #expect(!answer.text.contains(secret)) }
            // The gateway itself still holds them: a verify works with Apple's shared secret.
            #expect(
                try gateway.verify(
                    gateway.receipt(transactions: [Receipt.transaction(SampleContent.issueId, "880001")])
                ).status == 200)
        }

        /// The testbed's tracing module installs a process-wide tracer while the registry is built; the gateway's
        /// calls to Apple record nothing there (a twenty-third reviewer's read another route's transaction id in
        /// each call's URL, and Apple's status).
        @Test func aProcessWideTracerSeesNoneOfTheGatewaysCalls() throws {
            let gateway = try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, serverAPIKey: P256.Signing.PrivateKey(),
                moreRoutes: [("/v1/tracer", "tracer")])
            defer { gateway.stop() }
            let id = ServerAPIRoutes.id()
            try gateway.appStore.addAPI([ServerAPIRoutes.purchase(SampleContent.issueId, id, customer: "traced")])
            let verified = try gateway.deployment.request("/v1/verify", method: "POST", body: ServerAPIRoutes.body(id))
            #expect(verified.status == 200, "\(verified.text)")
            let spans = try gateway.deployment.request("/v1/tracer")
            #expect(spans.status == 200)
            #expect(spans.text == "[]", "\(spans.text)")
        }

        /// libpq reads `PG…` variables at every connection for what the URL leaves out. The testbed's
        /// environment-changing module sets `PGHOSTADDR` to an address where no server listens (a twenty-first
        /// reviewer's sent the ledger's password to an impostor so); the gateway took the variables at start, hands
        /// them to libpq itself and clears any set since, so its ledger is still the URL's.
        @Test func theLedgersServerIsTheURLsWhateverAModuleDoesToTheEnvironment() throws {
            let postgres = try PrivatePostgres()
            defer { postgres.destroy() }
            let gateway = try VerifyDeployment(ledgerURL: postgres.url)
            defer { gateway.stop() }
            let receipt = try gateway.receipt(transactions: [Receipt.transaction(SampleContent.issueId, "880002")])
            #expect(try gateway.verify(receipt).status == 200)
        }

        /// libfcgi reads `FCGI_WEB_SERVER_ADDRS`, the web servers it accepts, once. The testbed's
        /// environment-changing module's `name` takes it out of the environment (a twenty-first reviewer's did
        /// so before libfcgi read it, and a client from any address could speak FastCGI to the port); `serve` now
        /// has libfcgi read it before any module's code runs.
        @Test func theWebServersAllowListHoldsWhateverAModuleDoesToTheEnvironment() throws {
            var setup = GatewaySetup(listen: .tcp(host: "127.0.0.1"))
            setup.binary = Binaries.testbed
            setup.environment = ["FCGI_WEB_SERVER_ADDRS": "127.0.0.1"]
            let deployment = try Deployment(setup)
            defer { deployment.stop() }
            let config = try String(contentsOf: deployment.configFile, encoding: .utf8)
            let port = try #require(config.firstMatch(of: /listen: "127\.0\.0\.1:(\d+)"/).flatMap { Int($0.1) })
            let catalog = FastCGIConnection.request(["REQUEST_METHOD": "GET", "REQUEST_URI": "/v1/catalog"])
            let listed = try FastCGIConnection(host: "127.0.0.1", port: port, source: "127.0.0.1")
            listed.send(catalog)
            #expect(listed.answer()?.contains("\"products\"") == true)
            let stranger = try FastCGIConnection(host: "127.0.0.1", port: port, source: "127.0.0.2")
            stranger.send(catalog)
            #expect(stranger.answer() == nil, "a client the allow-list does not name was answered")
        }

        /// A module whose `Needs` is a type of its own would have the route's real capability source handed to
        /// it (a sixteenth reviewer's kept it by throwing a warning; a seventeenth's walked it by `Mirror`). The
        /// binary that includes one loads no config, and the module's needs never run.
        @Test func aBinaryWithAModuleWhoseNeedsAreItsOwnLoadsNoConfig() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let file = folder.appendingPathComponent("check.yaml")
            try Deployment.config(
                GatewaySetup(routes: [("/v1/catalog", "catalog")]), listenLine: "  listen: 127.0.0.1:9000\n"
            ).write(to: file, atomically: true, encoding: .utf8)
            let process = try ManagedProcess(
                Binaries.testbed.path, ["check-config", "--config", file.path],
                environment: ["TESTBED_OWN_NEEDS": "1"], logFile: folder.appendingPathComponent("check.log"))
            #expect(process.waitForExit(within: .seconds(20)) == 1, "\(process.log)")
            #expect(
                process.log.contains(
                    "TestbedHandlers.SourceMirroringHandler declares SourceMirror as its Needs, a type the gateway does not hand out"
                ), "\(process.log)")
            #expect(!process.log.contains("mirror of the capability source"), "\(process.log)")
        }

        /// The CGI answer `cgi-fcgi` prints for the request `environment` (a `env ...` prefix) describes, sent
        /// straight to the gateway's socket.
        static func rawAnswer(_ environment: String, _ deployment: Deployment) throws -> String {
            let script = "\(environment) cgi-fcgi -bind -connect \(deployment.socketPath) </dev/null"
            let process = try ManagedProcess(
                "/bin/sh", ["-c", script], logFile: deployment.folder.appendingPathComponent("raw.out"))
            #expect(process.waitForExit(within: .seconds(20)) == 0)
            return process.log
        }
    }
}
