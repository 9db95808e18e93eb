import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification
import Testing

extension EndToEnd {
    /// Attacks on content kept in object storage (`s3-presigned`, `s3-proxy`, `cloudfront`), through real nginx
    /// and the storage stand-in (which refuses what S3 and CloudFront refuse), the command line, CGI mode and a
    /// content handler module of the testbed's (``RemoteProbeHandler``, built against the handler API alone).
    /// Each test passes only when the attack is refused: no bytes, no usable link, no signed URL of the attacker's
    /// choosing, no secret or signature where it does not belong.
    @Suite struct AttackRemoteContent {
        static let remoteModes = ["s3-presigned", "s3-proxy", "cloudfront"]
        /// The modes that hand the client a link.
        static let linkModes = ["s3-presigned", "cloudfront"]

        /// A second object nobody here buys.
        static let secondId = "com.example.issue2"
        static let secondKey = "issues/second.bin"
        static let secondBytes = Array("the second issue, dearer, which no buyer in these tests paid for".utf8)
        static let original = "140001"

        /// The stand-in's catalog with the monthly subscription's content in the storage too, and the second
        /// object as a product of its own.
        static var catalog: String {
            StorageStandIn.catalog.replacingOccurrences(
                of: "    description: Every issue\n",
                with: "    description: Every issue\n" + objectLines(StorageStandIn.issueKey, SampleContent.issueBytes))
                + "\n  - id: \(secondId)\n    type: non-consumable\n    title: Issue 2\n    description: The second\n"
                + objectLines(secondKey, secondBytes)
        }

        static func objectLines(_ key: String, _ bytes: [UInt8]) -> String {
            "    object: \"\(key)\"\n    size: \(bytes.count)\n    sha256: \(SampleContent.sha256(bytes))\n"
        }

        static func storage() throws -> StorageStandIn { try StorageStandIn(objects: [secondKey: secondBytes]) }

        /// A gateway with verify and the download route, its content in `storage`.
        static func gateway(
            _ storage: StorageStandIn, _ delivery: String, environment: [String: String] = [:],
            extra: String = "", moreRoutes: [(String, String)] = []
        ) throws -> VerifyDeployment {
            try VerifyDeployment(
                environment: storage.environment(delivery).merging(environment) { _, chosen in chosen },
                delivery: delivery, catalog: catalog, extra: extra, moreRoutes: moreRoutes)
        }

        /// The testbed gateway with `routes`, whose fixture verifier takes `Bearer grant:<product>`.
        static func testbed(_ storage: StorageStandIn, _ delivery: String, routes: [(String, String)]) throws
            -> Deployment
        {
            var setup = GatewaySetup(binary: Binaries.testbed, routes: routes)
            setup.extra = "fixture_verifier:\n  enabled: true\n"
            setup.delivery = delivery
            setup.catalog = catalog
            setup.environment = storage.environment(delivery)
            return try Deployment(setup)
        }

        static let grant = [("Authorization", "Bearer grant:\(SampleContent.issueId)")]

        /// The storage's requests whose path holds `text`.
        static func seen(_ storage: StorageStandIn, _ text: String) throws -> [[String: Any]] {
            try storage.requests().filter { ($0["path"] as? String ?? "").contains(text) }
        }

        static func deliveries(_ gateway: VerifyDeployment) throws -> Int {
            try SQLiteLedger(path: gateway.ledgerPath).deliveries(
                environment: "Production", originalTransactionId: original
            )
            .count
        }

        /// What must never be shown: the storage's secret, a line of the CDN's private key, a link's signature.
        static func secrets(_ storage: StorageStandIn) -> [String] {
            let keyLines = storage.privateKeyPEM.split(separator: "\n").map(String.init)
            return [StorageStandIn.secretAccessKey, "PRIVATE KEY", keyLines[2], keyLines[keyLines.count - 3]]
        }

        static let signatures = ["X-Amz-Signature", "X-Amz-Credential", "Signature="]

        // MARK: - Links for what was not bought

        /// A token or a receipt for one object never gets a link to another object, in any mode, and the storage is
        /// not asked for it.
        @Test(arguments: remoteModes)
        func aPurchaseOfOneObjectGetsNoLinkToAnother(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(storage, delivery)
            defer { gateway.stop() }
            let receipt = try Download.buyer(gateway)
            let token = try Download.token(gateway, receipt: receipt)
            let bought = try gateway.download(SampleContent.issueId, token: token)
            #expect(bought.status == (delivery == "s3-proxy" ? 200 : 302), "\(bought.text)")

            let byToken = try gateway.download(Self.secondId, token: token)
            let byReceipt = try gateway.deployment.request(
                "/v1/download/\(Self.secondId)", method: "POST", body: Receipt.body(receipt))
            for answer in [byToken, byReceipt] {
                #expect(answer.status == 403, "\(answer.status) \(answer.text)")
                #expect(answer.errorCode == "not_entitled")
                #expect(answer.header("Location") == nil)
                #expect(SampleContent.sha256(answer.body) != SampleContent.sha256(Self.secondBytes))
            }
            #expect(try Self.seen(storage, "second").isEmpty, "the storage was asked for the other object")
        }

        /// Product ids that try to be object keys or paths (encoded slashes, dot segments, NUL, a zero-width space,
        /// another case, a very long id, the key itself) with a token for the issue: none gets a link to anything
        /// but the issue, and the storage is never asked for the other object.
        @Test func hostileProductIdsSignNoOtherKey() throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(storage, "s3-presigned")
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))
            let issue = SampleContent.issueId
            let paths = [
                "/v1/download/\(Self.secondKey)", "/v1/download/issues%2Fsecond.bin",
                "/v1/download/\(issue)%2F..%2F\(Self.secondId)", "/v1/download/\(issue)/../\(Self.secondId)",
                "/v1/download/\(issue)/%2e%2e/\(Self.secondId)", "/v1/download/%2e%2e/%2e%2e/issues/second.bin",
                "/v1/download/\(Self.secondId)%00", "/v1/download/\(issue)%00/../../issues/second.bin",
                "/v1/download/com.example.issue%32", "/v1/download/COM.EXAMPLE.ISSUE2",
                "/v1/download/\(Self.secondId)%E2%80%8B", "/v1/download/\(Self.secondId);\(issue)",
                "/v1/download/\(issue)/\(Self.secondKey)", "/v1/download//\(Self.secondId)",
                "/v1/download/" + String(repeating: "a", count: 300), "/v1/download/\(issue)%0D%0ALocation:%20x",
                "/v1/download/\(Self.secondId)?product=\(issue)", "/v1/download/\(issue)%2F",
                "/v1/download/" + String(repeating: "../", count: 8) + "issues/second.bin",
            ]
            let issueKey = "/issues/issue%201%2Bfinal.bin?"
            for path in paths {
                let answer = try gateway.deployment.request(path, headers: [("Authorization", "Bearer \(token)")])
                #expect(answer.status >= 400 || answer.status == 302, "\(path): \(answer.status)")
                if let location = answer.header("Location") {
                    #expect(location.contains(issueKey) && !location.contains("second"), "\(path): \(location)")
                }
                #expect(SampleContent.sha256(answer.body) != SampleContent.sha256(Self.secondBytes))
            }
            #expect(try Self.seen(storage, "second").isEmpty, "the storage was asked for the other object")
        }

        // MARK: - Links shaped by the client

        /// The download request's query and host choose nothing of the link: not its life, not the type or name S3
        /// answers with (an HTML page on the storage's origin), not its host.
        @Test(arguments: linkModes)
        func theClientChoosesNothingOfItsLink(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(storage, delivery)
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))
            let query =
                "?X-Amz-Expires=604800&response-content-type=text%2Fhtml&response-content-disposition=inline"
                + "&Expires=9999999999&Key-Pair-Id=KATTACKER&X-Amz-Credential=AKIAATTACKER"
            let answer = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)\(query)",
                headers: [
                    ("Authorization", "Bearer \(token)"), ("Host", "evil.example"),
                    ("X-Forwarded-Host", "evil.example"),
                    ("X-Forwarded-Proto", "https"), ("Forwarded", "host=evil.example"),
                ])
            #expect(answer.status == 302, "\(answer.text)")
            let link = try #require(answer.header("Location"))
            let port = delivery == "cloudfront" ? storage.cdnPort : storage.s3Port
            #expect(link.hasPrefix("http://127.0.0.1:\(port)/"), "\(link)")
            for chosen in ["evil", "text%2Fhtml", "inline", "604800", "9999999999", "ATTACKER"] {
                #expect(!link.contains(chosen), "\(chosen) in \(link)")
            }
            if delivery == "s3-presigned" { #expect(link.contains("X-Amz-Expires=300&")) }
            let fetched = try storage.fetch(link)
            #expect(fetched.status == 200)
            #expect(fetched.header("Content-Type") != "text/html")
        }

        /// A link changed on its way (another object's key, a longer life, another type S3 should answer with, the
        /// disposition left out, a later signing time, a parameter added, another key pair) is refused by the
        /// storage: the signature covers all of it.
        @Test(arguments: linkModes)
        func aTamperedLinkIsRefused(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(storage, delivery)
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))
            let link = try #require(try gateway.download(SampleContent.issueId, token: token).header("Location"))
            #expect(try storage.fetch(link).status == 200, "the untouched link works")
            let key = "issues/issue%201%2Bfinal.bin"
            var tampered = [
                link.replacingOccurrences(of: key, with: Self.secondKey), link + "&response-content-type=text%2Fhtml",
            ]
            if delivery == "s3-presigned" {
                let date = try #require(link.firstRange(of: /X-Amz-Date=[0-9]{8}T/))
                tampered += [
                    link.replacingOccurrences(of: "X-Amz-Expires=300", with: "X-Amz-Expires=604800"),
                    link.replacingOccurrences(of: "application%2Foctet-stream", with: "text%2Fhtml"),
                    link.replacing(/response-content-disposition=[^&]*&/, with: ""),
                    link.replacingCharacters(in: date, with: "X-Amz-Date=20990101T"),
                    link.replacingOccurrences(of: "/\(StorageStandIn.bucket)/", with: "/other-bucket/"),
                ]
            } else {
                let expires = try #require(link.firstMatch(of: /Expires=([0-9]+)/))
                tampered += [
                    link.replacingOccurrences(of: "Expires=\(expires.1)", with: "Expires=\(Int(expires.1)! + 86_400)"),
                    link.replacingOccurrences(
                        of: "Key-Pair-Id=\(StorageStandIn.keyPairId)", with: "Key-Pair-Id=KOTHER"),
                    link.replacingOccurrences(of: "?", with: "?a=b&"),
                ]
            }
            for changed in tampered {
                #expect(changed != link)
                let fetched = try storage.fetch(changed)
                #expect(fetched.status == 403 || fetched.status == 400, "\(changed): \(fetched.status)")
                #expect(SampleContent.sha256(fetched.body) != SampleContent.sha256(Self.secondBytes))
                #expect(SampleContent.sha256(fetched.body) != SampleContent.issueSHA256)
            }
        }

        // MARK: - Bytes without a record

        /// A HEAD download delivers nothing, so it records nothing: then its link must not deliver the bytes either.
        /// A link good for GET handed out for a HEAD gives the bytes with no delivery in the ledger (the evidence a
        /// refund answer and a consumable's consumption rest on).
        @Test(arguments: remoteModes)
        func aHeadDownloadYieldsNoBytesWithoutARecord(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(storage, delivery)
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))
            let head = try gateway.download(SampleContent.issueId, token: token, method: "HEAD")
            #expect(head.body.isEmpty)
            let recorded = try Self.deliveries(gateway)
            if let link = head.header("Location") {
                let variants: [[(String, String)]] = [[], [("Range", "bytes=0-39999")]]
                for range in variants {
                    let fetched = try storage.fetch(link, headers: range)
                    #expect(
                        !(200..<300).contains(fetched.status) || recorded > 0,
                        "a HEAD's link gave \(fetched.body.count) bytes (\(fetched.status)) and no delivery is recorded"
                    )
                }
            }
            let gets = try Self.seen(storage, "/issues/").filter {
                $0["method"] as? String == "GET" && [200, 206].contains($0["status"] as? Int ?? 0)
            }
            #expect(gets.isEmpty || recorded > 0, "nginx fetched the bytes for a HEAD, recorded nowhere")
        }

        /// A subscription that has ended gets no link, by receipt or by the token it had while active.
        @Test(arguments: remoteModes)
        func anEndedSubscriptionGetsNoLink(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(storage, delivery)
            defer { gateway.stop() }
            let monthly = SampleContent.monthlyId
            let active = try gateway.receipt(transactions: [
                Receipt.transaction(monthly, "150001", original: "150001", lineItem: "9150001", expires: "+3d")
            ])
            let answer = try gateway.deployment.request(
                "/v1/download/\(monthly)", method: "POST", body: Receipt.body(active))
            #expect(answer.status == (delivery == "s3-proxy" ? 200 : 302), "\(answer.text)")
            let ended = try gateway.receipt(transactions: [
                Receipt.transaction(monthly, "150002", original: "150002", lineItem: "9150002", expires: "-1m")
            ])
            let before = try Self.seen(storage, "/issues/").count
            let refused = try gateway.deployment.request(
                "/v1/download/\(monthly)", method: "POST", body: Receipt.body(ended))
            #expect(refused.status == 403, "\(refused.text)")
            #expect(refused.header("Location") == nil)
            #expect(try Self.seen(storage, "/issues/").count == before)
        }

        /// A POST download (the receipt in its body) is a 302, which the client follows with a GET and no body:
        /// a 307 or 308 would carry the receipt to the storage. The link holds nothing of the receipt.
        @Test(arguments: linkModes)
        func aPostDownloadNeverCarriesItsReceiptToTheStorage(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(storage, delivery)
            defer { gateway.stop() }
            let receipt = try Download.buyer(gateway)
            let posted = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", body: Receipt.body(receipt))
            #expect(posted.status == 302, "\(posted.text)")
            let link = try #require(posted.header("Location"))
            #expect(!link.contains(Receipt.data(receipt)) && !link.contains(receipt), "\(link)")
            #expect(try storage.fetch(link).status == 200)
            #expect(try storage.requests().allSatisfy { $0["method"] as? String != "POST" })
        }

        // MARK: - A content handler module against the storage

        /// A content handler adds a header that names another URL for nginx's s3-proxy location to fetch, spelt as
        /// the gateway's own or with `_` for `-` (nginx's `$upstream_http_x_accel_storegate_fetch` reads either).
        /// nginx must fetch the object the gateway signed, never the module's URL (here a path of the stand-in,
        /// standing for a cloud metadata service or any internal host).
        @Test(arguments: [
            "X-Accel-StoreGate-Fetch", "x-accel-storegate-fetch", "X_Accel_StoreGate_Fetch", "x_accel_storegate_fetch",
            "X-Accel_StoreGate-Fetch",
        ])
        func aContentHandlerCannotPointNginxsFetchElsewhere(_ name: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let deployment = try Self.testbed(storage, "s3-proxy", routes: [("/v1/remote-probe", "remote-probe")])
            defer { deployment.stop() }
            let decoy = "http://127.0.0.1:\(storage.s3Port)/decoy-ssrf/latest/meta-data/iam/"
            let encoded = decoy.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let answer = try deployment.request(
                "/v1/remote-probe/\(SampleContent.issueId)?h.\(name)=\(encoded)", headers: Self.grant)
            #expect(try Self.seen(storage, "decoy-ssrf").isEmpty, "nginx fetched the module's URL")
            #expect(answer.status == 200, "\(answer.status) \(answer.text.prefix(300))")
            #expect(SampleContent.sha256(answer.body) == SampleContent.issueSHA256)
        }

        /// Where the gateway answers with a link (no `X-Accel-Redirect` of its own), a content handler adds one
        /// spelt with `_`, to the s3-proxy location, and the URL to fetch: nginx follows neither, and the client
        /// gets the gateway's link.
        @Test(arguments: linkModes)
        func aContentHandlerCannotSendNginxToTheFetchLocation(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let deployment = try Self.testbed(storage, delivery, routes: [("/v1/remote-probe", "remote-probe")])
            defer { deployment.stop() }
            let decoy = "http://127.0.0.1:\(storage.s3Port)/decoy-ssrf/redirected"
            let encoded = decoy.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            for redirect in ["X_Accel_Redirect", "x_accel_redirect", "X-Accel_Redirect"] {
                let answer = try deployment.request(
                    "/v1/remote-probe/\(SampleContent.issueId)?h.\(redirect)=%2F_storegate_remote%2F"
                        + "&h.X_Accel_StoreGate_Fetch=\(encoded)", headers: Self.grant)
                #expect(answer.status == 302, "\(redirect): \(answer.status) \(answer.text.prefix(300))")
                #expect(answer.header("Location")?.hasPrefix("http://127.0.0.1:") == true)
            }
            #expect(try Self.seen(storage, "decoy-ssrf").isEmpty, "nginx fetched the module's URL")
        }

        /// The client's own headers name nothing nginx fetches: request headers spelt like the gateway's.
        @Test func aClientsHeadersCannotPointNginxsFetchElsewhere() throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let deployment = try Self.testbed(storage, "s3-proxy", routes: [("/v1/remote-probe", "remote-probe")])
            defer { deployment.stop() }
            let decoy = "http://127.0.0.1:\(storage.s3Port)/decoy-ssrf/client"
            let answer = try deployment.request(
                "/v1/remote-probe/\(SampleContent.issueId)",
                headers: Self.grant + [
                    ("X-Accel-StoreGate-Fetch", decoy), ("X_Accel_StoreGate_Fetch", decoy),
                    ("X-Accel-Redirect", "/_storegate_remote/"), ("Upstream-Http-X-Accel-StoreGate-Fetch", decoy),
                ])
            #expect(answer.status == 200, "\(answer.text.prefix(300))")
            #expect(SampleContent.sha256(answer.body) == SampleContent.issueSHA256)
            #expect(try Self.seen(storage, "decoy-ssrf").isEmpty, "nginx fetched the client's URL")
            // Nothing of the client's request went to the storage: the only authorization is the gateway's signature.
            for request in try Self.seen(storage, "/issues/") {
                let headers = request["headers"] as? [String] ?? []
                #expect(!headers.contains { $0.contains("accel") }, "\(headers)")
                let authorization = request["authorization"] as? String ?? ""
                #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=\(StorageStandIn.accessKeyId)/"))
            }
        }

        /// A content handler keeps the answer its entitlement gave and hands it to later requests: one entitled,
        /// and a plain route's that verifies nothing. As with local files, the kept answer must not deliver: no link
        /// that works, no bytes.
        @Test(arguments: remoteModes)
        func aContentAnswerKeptForAnotherRequestDeliversNothing(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let deployment = try Self.testbed(
                storage, delivery, routes: [("/v1/stashing-content", "stashing-content"), ("/v1/replay", "replay")])
            defer { deployment.stop() }
            let path = "/v1/stashing-content/\(SampleContent.issueId)"
            let first = try deployment.request(path, headers: Self.grant)
            #expect(first.status == (delivery == "s3-proxy" ? 200 : 302), "\(first.text)")
            for (later, headers) in [(path, Self.grant), ("/v1/replay", [])] {
                let replayed = try deployment.request(later, headers: headers)
                #expect(replayed.status == 500, "\(later): \(replayed.status) \(replayed.headers)")
                #expect(SampleContent.sha256(replayed.body) != SampleContent.issueSHA256, "\(later): the bytes")
                if let link = replayed.header("Location") {
                    let fetched = try storage.fetch(link)
                    #expect(fetched.status != 200, "\(later): a kept link still delivers")
                }
            }
        }

        /// What a content handler finds by `Mirror`, `dump` and `String(describing:)` in the content answer it is
        /// handed and in its catalog: never the storage's secret or the CDN's key, never the object's key (the
        /// content path's business), and with s3-proxy never the signed URL nginx fetches.
        @Test(arguments: remoteModes)
        func reflectionOnARemoteContentAnswerFindsNoLinkKeyOrSecret(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let deployment = try Self.testbed(storage, delivery, routes: [("/v1/remote-probe", "remote-probe")])
            defer { deployment.stop() }
            let answer = try deployment.request(
                "/v1/remote-probe/\(SampleContent.issueId)?reflect", headers: Self.grant)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(answer.json["visited"] as? Int ?? 0 > 10, "the walk walked: \(answer.text)")
            let strings = answer.json["strings"] as? [String] ?? []
            #expect(strings.contains(SampleContent.issueId), "the walk read the catalog")
            var forbidden =
                Self.secrets(storage) + [StorageStandIn.issueKey, "issues/issue%201%2Bfinal.bin", Self.secondKey]
            if delivery == "s3-proxy" { forbidden += Self.signatures + ["127.0.0.1:\(storage.s3Port)"] }
            for text in forbidden {
                #expect(!strings.contains { $0.contains(text) }, "\(text) found by reflection")
            }
            #expect(answer.json["keyedMACs"] as? [String] == [], "\(answer.text)")
        }

        // MARK: - Secrets and signatures where they do not belong

        /// Every surface an operator or a module can see after downloads, and the error answers a client can
        /// provoke: no storage secret, no private key, no link's signature. The process's environment has
        /// forgotten the storage's variables; a plain handler's reflection finds none of them.
        @Test(arguments: remoteModes)
        func noSurfaceShowsTheStoragesSecretsOrALinksSignature(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(
                storage, delivery, environment: ["STOREGATE_ACCOUNTS_SECRET": "account-secret-5e0c9a1b2c3d"],
                extra: "accounts:\n  asserted_by: [signed]\n",
                moreRoutes: [("/v1/env-reader", "env-reader"), ("/v1/reflecting", "reflecting")])
            defer { gateway.stop() }
            let receipt = try Download.buyer(gateway)
            let token = try Download.token(gateway, receipt: receipt)
            let download = try gateway.download(SampleContent.issueId, token: token)
            #expect(download.status == (delivery == "s3-proxy" ? 200 : 302))
            var answers = [
                try gateway.download(Self.secondId, token: token),
                try gateway.download(SampleContent.issueId, token: token + "x"),
                try gateway.download("no.such.product", token: token),
                try gateway.download(SampleContent.issueId, token: token, method: "DELETE"),
                try gateway.deployment.request("/v1/status"), try gateway.deployment.request("/v1/metrics"),
                try gateway.deployment.request("/v1/catalog"),
                try gateway.deployment.request("/v1/support?q=\(Self.original)"),
                try gateway.deployment.request("/v1/env-reader"),
            ]
            let reflecting = try gateway.deployment.request("/v1/reflecting")
            #expect(reflecting.status == 200, "\(reflecting.text)")
            answers.append(reflecting)
            if delivery == "s3-proxy" { answers.append(download) }
            for answer in answers {
                let seen = answer.text + answer.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
                for secret in Self.secrets(storage) + [StorageStandIn.accessKeyId] + Self.signatures {
                    #expect(!seen.contains(secret), "\(secret) in an answer: \(seen.prefix(400))")
                }
            }
            #expect(try gateway.deployment.request("/v1/env-reader").json.keys.allSatisfy { !$0.contains("CONTENT") })
            let logs = try gateway.logs(through: reflecting)
            for secret in Self.secrets(storage) + Self.signatures {
                #expect(!logs.contains(secret), "\(secret) in the logs")
            }
        }

        /// With s3-proxy, nginx fetches the signed URL itself; when the storage cannot be reached, its error log
        /// line names the upstream it tried. That must not be the signed URL: a log is not where a link that
        /// serves the object may be found.
        @Test func anUnreachableStorageLeavesNoSignedLinkInTheLogs() throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let gateway = try Self.gateway(storage, "s3-proxy")
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))
            storage.stop()
            let answer = try gateway.download(SampleContent.issueId, token: token)
            #expect(answer.status == 502, "\(answer.status) \(answer.text)")
            // docs/API.md's answer for a storage that fails: nginx's own JSON error.
            #expect(answer.errorCode == "storage_unavailable", "\(answer.text)")
            let nginxLog = gateway.deployment.folder.path + "/nginx/error.log"
            #expect(
                ManagedProcess.poll(for: .seconds(5)) {
                    ((try? String(contentsOfFile: nginxLog, encoding: .utf8)) ?? "").contains("upstream")
                }, "nginx logged nothing of the failed fetch")
            let logs = gateway.logs
            for signature in Self.signatures {
                #expect(!logs.contains(signature), "\(signature) in the logs")
                #expect(!answer.text.contains(signature))
            }
        }

        /// With s3-proxy the client never sees the storage: when the storage refuses (the object is gone, the
        /// signature is refused after a key rotation), its own error document (S3's names the bucket and key, and
        /// for a refused signature the access key id, the string to sign and the canonical request) must not be
        /// relayed to the client.
        @Test(arguments: ["missing object", "refused signature"])
        func theStoragesOwnErrorAnswerIsNotRelayedToTheClient(_ failure: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let missing = failure == "missing object"
            let catalog =
                missing
                ? Self.catalog.replacingOccurrences(
                    of: "object: \"\(StorageStandIn.issueKey)\"", with: "object: \"issues/missing.bin\"")
                : Self.catalog
            let gateway = try VerifyDeployment(
                environment: storage.environment("s3-proxy").merging(
                    missing ? [:] : ["STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY": "a-rotated-secret-0123456789abcdef"]
                ) { _, chosen in chosen }, delivery: "s3-proxy", catalog: catalog)
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))
            let answer = try gateway.download(SampleContent.issueId, token: token)
            #expect(answer.status >= 400, "\(answer.status)")
            #expect(answer.errorCode == "storage_unavailable", "\(answer.text)")
            #expect(try Self.seen(storage, "/issues/").count == 1, "the storage answered the fetch")
            for shown in [
                "<Error>", "NoSuchKey", "SignatureDoesNotMatch", "AccessDenied", StorageStandIn.bucket, "issues/",
                StorageStandIn.accessKeyId, "RequestId",
            ] {
                #expect(!answer.text.contains(shown), "the storage's \(shown) reached the client: \(answer.text)")
            }
        }

        // MARK: - CGI mode

        /// Run as a CGI program there is no nginx to follow an `X-Accel-Redirect` or fetch a URL: s3-proxy becomes
        /// a redirect to the link, and no `X-Accel-*` line, signed URL in a header of its own, or storage secret
        /// is ever printed.
        @Test(arguments: remoteModes)
        func cgiModeWritesNoFetchHeaderAndNoSecret(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            var setup = GatewaySetup(routes: [("/v1/download", "download")])
            setup.extra =
                "apple:\n  bundle_ids: [\(SampleContent.bundleId)]\ntokens:\n  secret: cgi-token-secret-0123456789\n"
            setup.delivery = delivery
            let (folder, config) = try SampleContent.makeFolder(config: "cgi.yaml", setup)
            defer { try? FileManager.default.removeItem(at: folder) }
            try Self.catalog.write(to: folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
            let ledger = try SQLiteLedger(path: folder.appendingPathComponent("ledger.sqlite").path)
            _ = try ledger.record(
                LedgerBatch(
                    transactions: [
                        LedgerTransaction(
                            environment: "Production", bundleId: SampleContent.bundleId,
                            productId: SampleContent.issueId, transactionId: "230001", originalTransactionId: "230001",
                            purchaseKey: .original("230001"))
                    ],
                    source: .verify, requestId: "test"))
            let token = DownloadTokens(secret: "cgi-token-secret-0123456789", ttl: 600)
                .issue(productId: SampleContent.issueId, originalTransactionId: "230001", environment: "Production")
                .token
            for method in ["GET", "HEAD"] {
                let answer = try Self.cgi(
                    config: config, method: method, uri: "/v1/download/\(SampleContent.issueId)",
                    environment: storage.environment(delivery).merging(["HTTP_AUTHORIZATION": "Bearer \(token)"]) {
                        _, new in new
                    })
                #expect(answer.head.first?.hasPrefix("Status: 302") == true, "\(answer.head) \(answer.stderr)")
                #expect(!answer.head.contains { $0.lowercased().hasPrefix("x-accel") }, "\(answer.head)")
                let printed = answer.head.joined(separator: "\n") + String(decoding: answer.body, as: UTF8.self)
                for secret in Self.secrets(storage) { #expect(!(printed + answer.stderr).contains(secret)) }
                #expect(!answer.stderr.contains("X-Amz-Signature") && !answer.stderr.contains("Signature="))
                let location = answer.head.first { $0.hasPrefix("Location: ") }.map { String($0.dropFirst(10)) }
                let link = try #require(location, "\(answer.head)")
                if method == "GET" {
                    let fetched = try storage.fetch(link)
                    #expect(fetched.status == 200)
                    #expect(SampleContent.sha256(fetched.body) == SampleContent.issueSHA256)
                }
            }
        }

        /// Runs the gateway once as a CGI program and splits what it printed.
        static func cgi(config: URL, method: String, uri: String, environment: [String: String]) throws
            -> (head: [String], body: [UInt8], stderr: String)
        {
            let process = Process()
            process.executableURL = Binaries.storegate
            process.arguments = []
            process.environment = [
                "GATEWAY_INTERFACE": "CGI/1.1", "REQUEST_METHOD": method, "REQUEST_URI": uri,
                "STOREGATE_CONFIG": config.path, "CONTENT_LENGTH": "", "PATH": "/usr/bin:/bin",
            ].merging(environment) { _, new in new }
            let output = Pipe()
            let errors = Pipe()
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let printed = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
            let logged = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            let split = try #require(printed.firstRange(of: Array("\r\n\r\n".utf8)), "\(logged)")
            let head = String(decoding: printed[..<split.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            return (head, Array(printed[split.upperBound...]), logged)
        }

        // MARK: - The catalog and the command line

        /// Object keys that would be read as paths elsewhere, or split a header, are refused when the catalog
        /// loads: a leading `/`, `.` and `..` parts, empty parts, CR LF and other control characters, too long.
        @Test func aCatalogKeyThatIsNotAPlainObjectKeyIsRefused() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var setup = GatewaySetup(routes: [("/v1/download", "download")])
            setup.delivery = "s3-presigned"
            setup.extra =
                "tokens:\n  secret: \(VerifyDeployment.tokenSecret)\napple:\n  bundle_ids: [\(SampleContent.bundleId)]\n"
            let config = folder.appendingPathComponent("storegate.yaml")
            try Deployment.config(setup, listenLine: "  listen: 127.0.0.1:9000\n")
                .write(to: config, atomically: true, encoding: .utf8)
            let storage = [
                "STOREGATE_CONTENT_S3_BUCKET": StorageStandIn.bucket, "STOREGATE_CONTENT_S3_REGION": "eu-west-1",
                "STOREGATE_CONTENT_S3_ENDPOINT": "http://127.0.0.1:9", "STOREGATE_CONTENT_S3_ADDRESSING": "path",
                "STOREGATE_CONTENT_S3_ACCESS_KEY_ID": StorageStandIn.accessKeyId,
                "STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY": StorageStandIn.secretAccessKey,
            ]
            let good = StorageStandIn.catalog
            let catalogFile = folder.appendingPathComponent("catalog.yaml")
            try good.write(to: catalogFile, atomically: true, encoding: .utf8)
            let accepted = try CommandLine.run(["check-config", "--config", config.path], environment: storage)
            #expect(accepted.status == 0, "\(accepted.output)")
            for key in [
                "/issues/x.bin", "issues/../secret.bin", "../other-bucket/x.bin", "issues/./x.bin", "issues//x.bin",
                "issues/x.bin/", "issues/x.bin\\r\\nLocation: http://evil.example/", "issues/x\\u0000.bin",
                "issues/x\\u007f.bin", "issues/x\\tb.bin", String(repeating: "k", count: 1025), "",
            ] {
                let hostile = good.replacingOccurrences(
                    of: "object: \"\(StorageStandIn.issueKey)\"", with: "object: \"\(key)\"")
                try hostile.write(to: catalogFile, atomically: true, encoding: .utf8)
                let checked = try CommandLine.run(["check-config", "--config", config.path], environment: storage)
                #expect(checked.status == 1, "\(key) was taken: \(checked.output)")
                #expect(!checked.output.contains(": OK ("), "\(key): \(checked.output)")
                for secret in [StorageStandIn.secretAccessKey] { #expect(!checked.output.contains(secret)) }
            }
        }

        /// A content type with CR LF (a catalog's: an operator's slip, or a contributor's) never splits an answer.
        /// Refused when the catalog loads, or else never in a header of the gateway's, and never signed into the
        /// link as the header the storage is to answer with (`response-content-type`): the gateway drops such a
        /// header from its own answers, and must not hand it to the storage to send.
        @Test(arguments: linkModes)
        func aContentTypeWithALineBreakSplitsNoAnswer(_ delivery: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let hostile = Self.catalog.replacingOccurrences(
                of: "content_type: application/octet-stream",
                with: "content_type: \"application/octet-stream\\r\\nSet-Cookie: injected=1\\r\\nX-Injected: 1\"")
            #expect(hostile != Self.catalog)
            let gateway: VerifyDeployment
            do {
                gateway = try VerifyDeployment(
                    environment: storage.environment(delivery), delivery: delivery, catalog: hostile)
            } catch {
                // Refused at load: the gateway did not come up on that catalog, and says why.
                #expect("\(error)".contains("content_type"), "\(error)")
                return
            }
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))
            let answer = try gateway.download(SampleContent.issueId, token: token)
            #expect(answer.status == 302, "\(answer.text)")
            #expect(answer.header("Set-Cookie") == nil && answer.header("X-Injected") == nil, "\(answer.headers)")
            let link = try #require(answer.header("Location"))
            #expect(!link.contains("%0D") && !link.contains("%0A"), "a line break signed into the link: \(link)")
        }

        /// The command line never prints a signed URL or the storage's secret: not when the storage cannot be
        /// reached, not when it refuses the key (check-config --remote, content measure).
        @Test(arguments: ["s3", "cloudfront"])
        func theCommandLineShowsNoSignedLinkWhenTheStorageFails(_ kind: String) throws {
            let storage = try Self.storage()
            defer { storage.stop() }
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try Self.catalog.write(
                to: folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
            var setup = GatewaySetup(routes: [("/v1/download", "download")])
            setup.delivery = kind == "s3" ? "s3-presigned" : "cloudfront"
            setup.extra =
                "tokens:\n  secret: \(VerifyDeployment.tokenSecret)\napple:\n  bundle_ids: [\(SampleContent.bundleId)]\n"
            let config = folder.appendingPathComponent("storegate.yaml")
            try Deployment.config(setup, listenLine: "  listen: 127.0.0.1:9000\n")
                .write(to: config, atomically: true, encoding: .utf8)
            let closed = try FreePort.next()
            var unreachable = storage.environment(setup.delivery!)
            var refused = unreachable
            if kind == "s3" {
                unreachable["STOREGATE_CONTENT_S3_ENDPOINT"] = "http://127.0.0.1:\(closed)"
                refused["STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY"] = "a-wrong-secret-0123456789abcdef"
            } else {
                unreachable["STOREGATE_CONTENT_CLOUDFRONT_URL"] = "http://127.0.0.1:\(closed)/"
                refused["STOREGATE_CONTENT_CLOUDFRONT_KEY_PAIR_ID"] = "KWRONGPAIR"
            }
            for environment in [unreachable, refused] {
                for arguments in [
                    ["check-config", "--config", config.path, "--remote"],
                    ["content", "measure", "--config", config.path],
                ] {
                    let run = try CommandLine.run(arguments, environment: environment)
                    #expect(run.status == 1, "\(arguments): \(run.output)\(run.errors)")
                    let printed = run.output + run.errors
                    #expect(printed.contains(Self.secondKey), "\(arguments): \(printed)")
                    for secret in Self.secrets(storage) + Self.signatures + ["a-wrong-secret"] {
                        #expect(!printed.contains(secret), "\(arguments): \(secret) in \(printed)")
                    }
                }
            }
        }
    }
}
