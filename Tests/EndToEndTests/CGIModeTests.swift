import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification
import Testing

extension EndToEnd {
    @Suite struct CGIMode {
        /// Runs the gateway once as a CGI program and splits what it printed.
        private func cgi(
            _ binary: URL = Binaries.storegate,
            config: URL,
            method: String = "GET",
            uri: String,
            pathInfo: String? = nil,
            body: [UInt8] = [],
            headers: [String: String] = [:]
        ) throws -> (head: [String], body: [UInt8], stderr: String) {
            let process = Process()
            process.executableURL = binary
            process.arguments = []
            var environment = [
                "GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": method, "REQUEST_URI": uri,
                "STOREGATE_CONFIG": config.path, "CONTENT_LENGTH": body.isEmpty ? "" : String(body.count),
                "PATH": "/usr/bin:/bin",
            ]
            if let pathInfo { environment["PATH_INFO"] = pathInfo }
            environment.merge(headers) { _, new in new }
            process.environment = environment
            let input = Pipe()
            let output = Pipe()
            let errors = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            try input.fileHandleForWriting.write(contentsOf: body)
            try input.fileHandleForWriting.close()
            let printed = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
            let logged = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let split = try #require(printed.firstRange(of: Array("\r\n\r\n".utf8)))
            let head = String(decoding: printed[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            return (head, Array(printed[split.upperBound...]), logged)
        }

        /// A token for the sample issue, bought as `original`: the purchase recorded as verify would have.
        private static func issueBought(in folder: URL, original: String) throws -> String {
            let ledger = try SQLiteLedger(path: folder.appendingPathComponent("ledger.sqlite").path)
            _ = try ledger.record(
                LedgerBatch(
                    transactions: [
                        LedgerTransaction(
                            environment: "Production", bundleId: SampleContent.bundleId,
                            productId: SampleContent.issueId,
                            transactionId: original, originalTransactionId: original, purchaseKey: .original(original))
                    ],
                    source: .verify, requestId: "test"))
            return DownloadTokens(secret: "cgi-token-secret-0123456789", ttl: 600)
                .issue(productId: SampleContent.issueId, originalTransactionId: original, environment: "Production")
                .token
        }

        @Test func downloadsAreStreamedEvenWhenTheConfigSaysXAccel() throws {
            var setup = GatewaySetup(routes: [("/v1/download", "download")])
            setup.extra =
                "apple:\n  bundle_ids: [\(SampleContent.bundleId)]\ntokens:\n  secret: cgi-token-secret-0123456789\n"
            setup.delivery = "x-accel"
            let (folder, config) = try SampleContent.makeFolder(config: "cgi.yaml", setup)
            defer { try? FileManager.default.removeItem(at: folder) }
            let token = try Self.issueBought(in: folder, original: "220001")
            let answer = try cgi(
                config: config, uri: "/v1/download/\(SampleContent.issueId)",
                headers: ["HTTP_AUTHORIZATION": "Bearer \(token)", "HTTP_RANGE": "bytes=10-19"])
            #expect(answer.head.first == "Status: 206 Partial Content", "\(answer.head) \(answer.stderr)")
            #expect(answer.body == Array(SampleContent.issueBytes[10..<20]))
            #expect(!answer.head.contains { $0.hasPrefix("X-Accel-Redirect") })
            let whole = try cgi(
                config: config, uri: "/v1/download/\(SampleContent.issueId)",
                headers: ["HTTP_AUTHORIZATION": "Bearer \(token)"])
            #expect(SampleContent.sha256(whole.body) == SampleContent.issueSHA256)
        }

        @Test func s3ProxyRedirectsToTheStorageWhereNoNginxWouldFetch() throws {
            var setup = GatewaySetup(routes: [("/v1/download", "download")])
            setup.extra =
                "apple:\n  bundle_ids: [\(SampleContent.bundleId)]\ntokens:\n  secret: cgi-token-secret-0123456789\n"
            setup.delivery = "s3-proxy"
            let (folder, config) = try SampleContent.makeFolder(config: "cgi.yaml", setup)
            defer { try? FileManager.default.removeItem(at: folder) }
            try StorageStandIn.catalog.write(
                to: folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
            let token = try Self.issueBought(in: folder, original: "220002")
            let storage = [
                "STOREGATE_CONTENT_S3_BUCKET": StorageStandIn.bucket, "STOREGATE_CONTENT_S3_REGION": "eu-west-1",
                "STOREGATE_CONTENT_S3_ENDPOINT": "http://127.0.0.1:9000", "STOREGATE_CONTENT_S3_ADDRESSING": "path",
                "STOREGATE_CONTENT_S3_ACCESS_KEY_ID": "AKIACGI", "STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY": "cgi/secret",
            ]
            let answer = try cgi(
                config: config, uri: "/v1/download/\(SampleContent.issueId)",
                headers: storage.merging(["HTTP_AUTHORIZATION": "Bearer \(token)"]) { _, new in new })
            #expect(answer.head.first == "Status: 302 Found", "\(answer.head) \(answer.stderr)")
            #expect(
                answer.head.contains {
                    $0.hasPrefix(
                        "Location: http://127.0.0.1:9000/\(StorageStandIn.bucket)/issues/issue%201%2Bfinal.bin?")
                })
            #expect(!answer.head.contains { $0.hasPrefix("X-Accel") })
        }

        @Test func theWebServersAccountArrivesInTheEnvironment() throws {
            var setup = GatewaySetup(routes: [("/v1/entitlements", "entitlements")])
            setup.extra =
                "apple:\n  bundle_ids: [\(SampleContent.bundleId)]\naccounts:\n  asserted_by: [web-server]\n"
            let (folder, config) = try SampleContent.makeFolder(config: "cgi.yaml", setup)
            defer { try? FileManager.default.removeItem(at: folder) }
            let named = try cgi(config: config, uri: "/v1/entitlements", headers: ["STOREGATE_ACCOUNT": "reader-7"])
            #expect(named.head.first == "Status: 200 OK", "\(named.head) \(named.stderr)")
            #expect(String(decoding: named.body, as: UTF8.self) == #"{"account_id":"reader-7","entitlements":[]}"#)
            let anonymous = try cgi(config: config, uri: "/v1/entitlements", headers: ["HTTP_STOREGATE_ACCOUNT": "7"])
            #expect(anonymous.head.first == "Status: 401 Unauthorized", "\(anonymous.head)")
        }

        /// Loading the config runs every handler's `init` before the request is answered: a module there finds
        /// nothing of the request (not its headers, not its body), cannot change it (the account the web server
        /// vouches for stays the web server's), and what it prints is not the answer.
        @Test func aHandlersSetupNeitherSeesNorChangesTheRequest() throws {
            var setup = GatewaySetup(routes: [
                ("/v1/entitlements", "entitlements"), ("/v1/echo", "echo"), ("/v1/rewriter", "request-rewriter"),
            ])
            setup.extra =
                "apple:\n  bundle_ids: [\(SampleContent.bundleId)]\naccounts:\n  asserted_by: [web-server]\n"
            let (folder, config) = try SampleContent.makeFolder(config: "cgi.yaml", setup)
            defer { try? FileManager.default.removeItem(at: folder) }
            let named = try cgi(
                Binaries.testbed, config: config, uri: "/v1/entitlements",
                headers: ["STOREGATE_ACCOUNT": "victim-9", "HTTP_AUTHORIZATION": "Bearer secret-token"])
            #expect(named.head.first == "Status: 200 OK", "\(named.head) \(named.stderr)")
            #expect(!named.head.contains { $0.hasPrefix("X-Accel-Redirect") }, "\(named.head)")
            #expect(String(decoding: named.body, as: UTF8.self) == #"{"account_id":"victim-9","entitlements":[]}"#)
            #expect(
                named.stderr.contains(
                    "request-rewriter saw HTTP_AUTHORIZATION=- REQUEST_URI=- STOREGATE_ACCOUNT=- stdin=0"),
                "\(named.stderr)")
            let body = Array("a body for the echo route".utf8)
            let echoed = try cgi(Binaries.testbed, config: config, method: "POST", uri: "/v1/echo", body: body)
            #expect(echoed.head.first == "Status: 200 OK", "\(echoed.head) \(echoed.stderr)")
            #expect(String(decoding: echoed.body, as: UTF8.self).contains("\"length\":\(body.count)"))
        }

        @Test func answersLikeFastCGIByteForByte() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            for path in ["/v1/catalog", "/v1/absent"] {
                let viaNginx = try deployment.request(path)
                let viaCGI = try cgi(config: deployment.configFile, uri: path)
                #expect(viaCGI.body == viaNginx.body, "\(path)")
                #expect(
                    viaCGI.head.first == "Status: \(viaNginx.status) \(viaNginx.status == 200 ? "OK" : "Not Found")")
                #expect(viaCGI.head.contains("Content-Length: \(viaNginx.body.count)"))
            }
            let etag = try #require(try deployment.request("/v1/catalog").header("ETag"))
            let cached = try cgi(
                config: deployment.configFile, uri: "/v1/catalog", headers: ["HTTP_IF_NONE_MATCH": etag])
            #expect(cached.head.first == "Status: 304 Not Modified")
            #expect(cached.body.isEmpty)
        }

        @Test func routesOnPathInfoUnderAScriptAlias() throws {
            let (folder, config) = try SampleContent.makeFolder(config: "storegate.yaml")
            defer { try? FileManager.default.removeItem(at: folder) }
            let answer = try cgi(
                config: config,
                uri: "/cgi-bin/storegate/v1/catalog?x=1",
                pathInfo: "/v1/catalog",
                headers: ["HTTP_X_REQUEST_ID": "cgi-7"]
            )
            #expect(answer.head.first == "Status: 200 OK")
            #expect(answer.head.contains("X-Request-Id: cgi-7"))
        }

        @Test func readsTheBodyFromStdinWithinTheLimit() throws {
            let setup = GatewaySetup(routes: [("/v1/echo", "echo")], server: ["max_body_bytes": "1000"])
            let (folder, config) = try SampleContent.makeFolder(config: "storegate.yaml", setup)
            defer { try? FileManager.default.removeItem(at: folder) }
            let body = [UInt8](repeating: 7, count: 1000)
            let echoed = try cgi(Binaries.testbed, config: config, method: "POST", uri: "/v1/echo", body: body)
            #expect(echoed.head.first == "Status: 200 OK")
            #expect(String(decoding: echoed.body, as: UTF8.self).contains("\"length\":1000"))
            let refused = try cgi(Binaries.testbed, config: config, method: "POST", uri: "/v1/echo", body: body + [7])
            #expect(refused.head.first == "Status: 413 Content Too Large")
        }

        @Test func aBrokenConfigAnswers500AndSaysWhyOnStderr() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = folder.appendingPathComponent("storegate.yaml")
            try "routes:\n  - { path: /v1/catalog, handler: nothing }\n".write(
                to: config, atomically: true, encoding: .utf8)
            let answer = try cgi(config: config, uri: "/v1/catalog")
            #expect(answer.head.first == "Status: 500 Internal Server Error")
            #expect(String(decoding: answer.body, as: UTF8.self).contains("\"internal_error\""))
            #expect(answer.stderr.contains("routes[0].handler"))
        }
    }
}
