import Foundation
import Testing

extension EndToEnd {
    @Suite struct CheckConfig {
        private func checkConfig(
            _ config: String, in folder: URL, arguments: [String] = [], environment: [String: String] = [:]
        ) throws -> (status: Int32?, output: String) {
            let file = folder.appendingPathComponent("check.yaml")
            try config.write(to: file, atomically: true, encoding: .utf8)
            let process = try ManagedProcess(
                Binaries.storegate.path,
                ["check-config", "--config", file.path] + arguments, environment: environment,
                logFile: folder.appendingPathComponent("check-\(UUID().uuidString).log")
            )
            return (process.waitForExit(within: .seconds(20)), process.log)
        }

        @Test func soundConfigPasses() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = Deployment.config(GatewaySetup(), listenLine: "  listen: 127.0.0.1:9000\n")
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("OK (2 routes"))
        }

        @Test func theShippedExampleConfigPasses() throws {
            let process = try ManagedProcess(
                Binaries.storegate.path,
                ["check-config", "--config", Binaries.deploy.appendingPathComponent("storegate.yaml").path],
                environment: [
                    "STOREGATE_SERVER_SOCKET_GROUP": "",
                    "STOREGATE_TOKENS_SECRET": "a-test-secret-of-some-length",
                    // The example's ledger lives in systemd's state folder, which a test machine lacks.
                    "STOREGATE_LEDGER_URL": "sqlite://" + FileManager.default.temporaryDirectory.path
                        + "/check-example-\(UUID()).sqlite",
                ],
                logFile: FileManager.default.temporaryDirectory.appendingPathComponent("check-example-\(UUID()).log")
            )
            #expect(process.waitForExit(within: .seconds(20)) == 0, "\(process.log)")
        }

        @Test func everyProblemIsReportedAtOnceWithItsKeyPath() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.removeItem(at: folder.appendingPathComponent("content/issues/1.bin"))
            let config = """
                server:
                  listen: "0.0.0.0"
                  workers: lots
                  socket_mode: "0999"
                  max_body_byte: 10
                routes:
                  - { path: /v1/catalog, handler: catalog }
                  - { path: /v1/shop, handler: shop }
                  - { path: v1/status, handler: status }
                catalog:
                  file: catalog.yaml
                content:
                  root: content
                """
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 1)
            let lines = result.output.split(separator: "\n").map(String.init)
            for expected in [
                "server.listen:", "server.workers:", "server.socket_mode:",
                "routes[1].handler: unknown handler \"shop\"",
                "routes[2].path:", "catalog.yaml: products[0].content: file issues/1.bin not found",
            ] {
                #expect(lines.contains { $0.contains(expected) }, "missing \(expected) in:\n\(result.output)")
            }
        }

        @Test func environmentOverridesTheFile() throws {
            let (folder, file) = try SampleContent.makeFolder(config: "check.yaml")
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = try ManagedProcess(
                Binaries.storegate.path,
                ["check-config", "--config", file.path],
                environment: ["STOREGATE_SERVER_WORKERS": "none", "STOREGATE_CATALOG_FILE": "missing.yaml"],
                logFile: folder.appendingPathComponent("check.log")
            )
            #expect(process.waitForExit(within: .seconds(20)) == 1)
            #expect(
                process.log.contains(
                    "error: STOREGATE_SERVER_WORKERS (server.workers): must be a whole number, not \"none\""),
                "\(process.log)")
            #expect(process.log.contains("missing.yaml: cannot read the catalog file: there is no such file"))
        }

        /// Errors and warnings in one run, each one line with its key path: an unknown key with the known key it
        /// likely meant, a wrong type, a missing required key, and a summary that counts them.
        @Test func errorsAndWarningsComeInOneRunWithTheKeyMeant() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = """
                server:
                  listen: 127.0.0.1:9000
                  wokers: 8
                  max_body_bytes: plenty
                routes:
                  - { path: /v1/catalog, handler: catalog, rate_pers: 3 }
                content:
                  root: content
                """
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 1)
            let lines = result.output.split(separator: "\n").map(String.init)
            for expected in [
                "error: server.max_body_bytes: must be a whole number, not \"plenty\"",
                "error: catalog.file: is required: the routes need a product catalog",
                "warning: server.wokers: unknown key; did you mean workers?",
                "warning: routes[0].rate_pers: unknown key; did you mean rate_per_s?",
            ] {
                #expect(lines.contains(expected), "missing \(expected) in:\n\(result.output)")
            }
            #expect(lines.last?.hasSuffix("check.yaml: 2 errors, 2 warnings") == true, "\(result.output)")
        }

        /// A misspelt environment variable changes nothing: it is named, with the variable it likely meant.
        @Test func aVariableThatNamesNoKeyIsWarnedAbout() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = Deployment.config(GatewaySetup(), listenLine: "  listen: 127.0.0.1:9000\n")
            let result = try checkConfig(config, in: folder, environment: ["STOREGATE_SERVER_WOKERS": "8"])
            #expect(result.status == 0, "\(result.output)")
            #expect(
                result.output.contains(
                    "warning: STOREGATE_SERVER_WOKERS: names no config key this build or its enabled routes read; "
                        + "did you mean STOREGATE_SERVER_WORKERS?"), "\(result.output)")
            #expect(result.output.contains("OK (2 routes, listening on 127.0.0.1:9000, 1 warning)"), "\(result.output)")
            let strict = try checkConfig(
                config, in: folder, arguments: ["--strict"], environment: ["STOREGATE_SERVER_WOKERS": "8"])
            #expect(strict.status == 1, "\(strict.output)")
            #expect(strict.output.contains("1 warning, fatal with --strict"), "\(strict.output)")
        }

        /// A route that cannot answer as configured is a warning: the holdings of an app account with no accounts.
        @Test func entitlementsWithoutAccountsIsWarnedAbout() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = """
                server:
                  listen: 127.0.0.1:9000
                routes:
                  - { path: /v1/entitlements, handler: entitlements }
                apple:
                  bundle_ids: [\(SampleContent.bundleId)]
                catalog:
                  file: catalog.yaml
                content:
                  root: content
                ledger:
                  url: sqlite:ledger.sqlite
                """
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 0, "\(result.output)")
            #expect(
                result.output.contains("warning: accounts: is not set, so a route that answers an app account's "),
                "\(result.output)")
        }

        /// Why a config file cannot be read, in words.
        @Test func anUnreadableConfigFileSaysWhy() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let latin1 = folder.appendingPathComponent("latin1.yaml")
            try Data([0x73, 0x65, 0x72, 0x76, 0x65, 0x72, 0x3A, 0x20, 0xE9, 0x0A]).write(to: latin1)
            for (file, why) in [
                (folder.appendingPathComponent("absent.yaml").path, "there is no such file"),
                (folder.appendingPathComponent("nowhere/absent.yaml").path, "there is no folder"),
                (folder.path, "it is a folder, not a file"),
                (latin1.path, "it is not UTF-8 text"),
            ] {
                let process = try ManagedProcess(
                    Binaries.storegate.path, ["check-config", "--config", file],
                    logFile: folder.appendingPathComponent("check-\(UUID().uuidString).log"))
                #expect(process.waitForExit(within: .seconds(20)) == 1)
                #expect(process.log.contains("error: \(file): cannot read the config file: \(why)"), "\(process.log)")
            }
        }

        @Test func accountSettingsAreChecked() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = """
                server:
                  listen: 127.0.0.1:9000
                routes:
                  - { path: /v1/entitlements, handler: entitlements }
                apple:
                  production_url: http://127.0.0.1:1/verifyReceipt
                catalog:
                  file: catalog.yaml
                content:
                  root: content
                accounts:
                  asserted_by: [signed, cookies]
                  secret: short
                  restore_policy: steal
                  restore_policy_by_type: { non-consumable: lend }
                """
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 1)
            for expected in [
                "accounts.asserted_by: lists web-server and/or signed, not \"cookies\"",
                "accounts.secret: must be at least 16 characters",
                "accounts.restore_policy: must be one of transfer, keep, share, not \"steal\"",
                "accounts.restore_policy_by_type.non-consumable: must be one of transfer, keep, share, not \"lend\"",
            ] {
                #expect(result.output.contains(expected), "missing \(expected) in:\n\(result.output)")
            }
        }

        @Test func verificationSettingsAreChecked() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = """
                server:
                  listen: 127.0.0.1:9000
                routes:
                  - { path: /v1/verify, handler: verify }
                  - { path: /v1/download, handler: download }
                apple:
                  production_url: http://buy.itunes.apple.com/verifyReceipt
                  accept_sandbox: perhaps
                  root_certificates: [certs/missing.cer, catalog.yaml]
                  verifier: sometimes
                catalog:
                  file: catalog.yaml
                content:
                  root: content
                ledger:
                  url: mysql://db/ledger
                """
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 1)
            for expected in [
                "apple.bundle_ids: must list", "apple.production_url: must use https", "apple.accept_sandbox:",
                "ledger.url: must start with sqlite: or postgres://",
                "tokens.secret: is required by the download route",
                "apple.root_certificates: cannot read certs/missing.cer",
                "apple.root_certificates: a configured root is not a DER or PEM certificate",
                "apple.verifier: must be online, local, local-then-online or server-api",
            ] {
                #expect(result.output.contains(expected), "missing \(expected) in:\n\(result.output)")
            }
        }

        @Test func theServerAPIVerifierNeedsTheServerAPIAndRoots() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = """
                server:
                  listen: 127.0.0.1:9000
                routes:
                  - { path: /v1/verify, handler: verify }
                apple:
                  bundle_ids: [com.example.app]
                  verifier: server-api
                catalog:
                  file: catalog.yaml
                """
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 1)
            #expect(result.output.contains("apple.verifier: server-api verification needs apple.server_api"))
            #expect(result.output.contains("apple.verifier: server-api verification needs apple.root_certificates"))
        }

        /// Apple's library refuses to verify Production data without the app's Apple ID: a config whose
        /// notifications route takes Production notifications must name it.
        @Test func takingProductionNotificationsNeedsTheAppAppleId() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            func config(routes: [String], apple: String) -> String {
                """
                server:
                  listen: 127.0.0.1:9000
                routes:
                \(routes.map { "  - { path: /v1/\($0), handler: \($0) }\n" }.joined())apple:
                  bundle_ids: [com.example.app]
                  root_certificates: ["\(EndToEnd.SignedTransactions.testRoot.path)"]
                  \(apple)
                catalog:
                  file: catalog.yaml
                """
            }
            let required = "apple.app_apple_id: is required: a route takes App Store Server Notifications"
            let missing = try checkConfig(config(routes: ["verify", "notifications"], apple: ""), in: folder)
            #expect(missing.status == 1)
            #expect(missing.output.contains(required), "\(missing.output)")
            for (routes, apple) in [
                (["verify", "notifications"], "app_apple_id: 1234"),
                (["verify", "notifications"], "environments: [Sandbox]"),
                (["verify"], ""),
            ] {
                let result = try checkConfig(config(routes: routes, apple: apple), in: folder)
                #expect(!result.output.contains("app_apple_id"), "\(routes) \(apple): \(result.output)")
            }
        }

        /// Offers are signed with the App Store Server API's in-app purchase key: a route without it is refused.
        @Test func theOffersRouteNeedsAStoreThatSignsOffers() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = """
                server:
                  listen: 127.0.0.1:9000
                routes:
                  - { path: /v1/offers, handler: offers }
                apple:
                  bundle_ids: [com.example.app]
                accounts:
                  asserted_by: [web-server]
                offers:
                  promotional:
                    - { id: winback, product: com.example.issue1, for: lapsed }
                    - { id: later, product: \(SampleContent.monthlyId), for: sometimes }
                catalog:
                  file: catalog.yaml
                """
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 1)
            #expect(
                result.output.contains("offers: needs a store that signs offers: apple.server_api"), "\(result.output)")
        }

        @Test func anUnreachablePostgreSQLIsNamedWithoutItsPassword() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = """
                server:
                  listen: \(folder.path)/storegate.sock
                routes:
                  - { path: /v1/restore-sync, handler: restore-sync }
                apple:
                  bundle_ids: [\(SampleContent.bundleId)]
                catalog:
                  file: catalog.yaml
                content:
                  root: content
                ledger:
                  url: postgres://storegate:Sup3r-Secret-Pw@127.0.0.1:1/storegate
                """
            let result = try checkConfig(config, in: folder)
            #expect(result.status == 1)
            #expect(result.output.contains("ledger.url: cannot connect to PostgreSQL"), "\(result.output)")
            let serve = try ManagedProcess(
                Binaries.storegate.path, ["serve", "--config", folder.appendingPathComponent("check.yaml").path],
                logFile: folder.appendingPathComponent("serve.log"))
            #expect(serve.waitForExit(within: .seconds(20)) != 0)
            #expect(serve.log.contains("ledger.url"), "\(serve.log)")
            for output in [result.output, serve.log] { #expect(!output.contains("Sup3r-Secret-Pw")) }
        }
    }
}
