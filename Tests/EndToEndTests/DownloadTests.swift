import Foundation
import GatewayHandlerAPI
import PurchaseLedger
import PurchaseVerification
import Testing

extension EndToEnd {
    /// `/v1/download/{id}` through real nginx: tokens, receipts, X-Accel and streamed delivery.
    @Suite struct Download {
        static func buyer(_ gateway: VerifyDeployment, original: String = "140001") throws -> String {
            try gateway.receipt(transactions: [
                Receipt.transaction(SampleContent.issueId, original),
                Receipt.transaction(SampleContent.monthlyId, "\(original)9", lineItem: "9\(original)", expires: "+3d"),
            ])
        }

        /// Apple now reports the issue bought as `original` refunded; a new verification records it.
        static func refund(_ gateway: VerifyDeployment, original: String) throws {
            let refunded = try gateway.verify(
                try gateway.receipt(
                    transactions: [Receipt.transaction(SampleContent.issueId, original, cancelled: "-1m")]))
            #expect(refunded.entitlementProducts.isEmpty)
        }

        static func token(_ gateway: VerifyDeployment, receipt: String) throws -> String {
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 200, "\(answer.text)")
            return try #require(answer.downloadToken(for: SampleContent.issueId))
        }

        @Test(arguments: ["x-accel", "stream"])
        func aTokenFromVerifyDownloadsTheExactBytes(_ delivery: String) throws {
            let gateway = try VerifyDeployment(delivery: delivery)
            defer { gateway.stop() }
            let receipt = try Self.buyer(gateway)
            let verified = try gateway.verify(receipt)
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            let entitlements = verified.json["entitlements"] as? [[String: Any]] ?? []
            #expect(
                entitlements.first { $0["product_id"] as? String == SampleContent.monthlyId }?["download_token"] == nil)
            #expect(entitlements.first?["download_token_expires"] is String)

            let download = try gateway.download(SampleContent.issueId, token: token)
            #expect(download.status == 200, "\(download.text)")
            #expect(SampleContent.sha256(download.body) == SampleContent.issueSHA256)
            #expect(download.header("Content-Type") == "application/octet-stream")
            #expect(download.header("Content-Disposition") == "attachment; filename=\"1.bin\"")
            #expect(download.header("X-Request-Id") != nil)
            #expect(download.header("X-Accel-Redirect") == nil)
            #expect(download.header("Accept-Ranges") == "bytes")

            let range = try gateway.download(SampleContent.issueId, token: token, headers: [("Range", "bytes=100-199")])
            #expect(range.status == 206)
            #expect(range.body == Array(SampleContent.issueBytes[100..<200]))
            #expect(range.header("Content-Range") == "bytes 100-199/\(SampleContent.issueBytes.count)")
            let tail = try gateway.download(SampleContent.issueId, token: token, headers: [("Range", "bytes=-10")])
            #expect(tail.body == Array(SampleContent.issueBytes.suffix(10)))
            let beyond = try gateway.download(
                SampleContent.issueId, token: token, headers: [("Range", "bytes=999999-")])
            #expect(beyond.status == 416)
            if delivery == "stream" {
                #expect(download.header("ETag") == "\"\(SampleContent.issueSHA256)\"")
                #expect(download.header("Content-Length") == String(SampleContent.issueBytes.count))
                #expect(beyond.header("Content-Range") == "bytes */\(SampleContent.issueBytes.count)")
                let head = try gateway.download(SampleContent.issueId, token: token, method: "HEAD")
                #expect(head.status == 200 && head.body.isEmpty)
            }
            // Every grant of bytes is recorded with the content's digest.
            let deliveries = try SQLiteLedger(path: gateway.ledgerPath)
                .deliveries(environment: "Production", originalTransactionId: "140001")
            #expect(deliveries.count >= 3)
            #expect(
                deliveries.allSatisfy {
                    $0.productId == SampleContent.issueId && $0.contentSHA256 == SampleContent.issueSHA256
                })
        }

        @Test func badExpiredTamperedAndForeignTokensAreRefused() throws {
            let gateway = try VerifyDeployment(
                tokens: "tokens:\n  secret: new-secret-0123456789\n  previous_secrets: [old-secret-0123456789]\n")
            defer { gateway.stop() }
            _ = try gateway.verify(try Self.buyer(gateway))
            let old = DownloadTokens(secret: "old-secret-0123456789", ttl: 600)
            let stranger = DownloadTokens(secret: "someone-elses-secret", ttl: 600)
            let mint = { (tokens: DownloadTokens, product: String, now: Date) in
                tokens.issue(productId: product, originalTransactionId: "140001", environment: "Production", now: now)
                    .token
            }
            let rotated = mint(old, SampleContent.issueId, Date())
            #expect(try gateway.download(SampleContent.issueId, token: rotated).status == 200)

            let expired = mint(old, SampleContent.issueId, Date().addingTimeInterval(-3600))
            var tampered = Array(rotated)
            tampered[5] = tampered[5] == "A" ? "B" : "A"
            for token in [expired, String(tampered), mint(stranger, SampleContent.issueId, Date()), "garbage", "a.b"] {
                let answer = try gateway.download(SampleContent.issueId, token: token)
                #expect(answer.status == 401, "\(token)")
                #expect(answer.errorCode == "token_invalid")
            }
            // A genuine token for another product is not a token for this one.
            let otherProduct = try gateway.download(
                SampleContent.issueId, token: mint(old, SampleContent.monthlyId, Date()))
            #expect(otherProduct.status == 403)
            #expect(otherProduct.errorCode == "not_entitled")
        }

        @Test func aReceiptInThePostBodyDownloadsToo() throws {
            let gateway = try VerifyDeployment(delivery: "stream")
            defer { gateway.stop() }
            let receipt = try Self.buyer(gateway)
            let path = "/v1/download/\(SampleContent.issueId)"
            let answer = try gateway.deployment.request(path, method: "POST", body: Receipt.body(receipt))
            #expect(answer.status == 200)
            #expect(SampleContent.sha256(answer.body) == SampleContent.issueSHA256)
            // The answer is the file, so what the verification found is logged on a line of its own.
            let id = try #require(answer.header("X-Request-Id"))
            #expect(
                ManagedProcess.poll(for: .seconds(5)) {
                    gateway.logs.split(separator: "\n").contains {
                        $0.contains("msg=\"purchases verified\"") && $0.contains("request-id=\(id)")
                            && $0.contains(" receipt=") && $0.contains(" cached=")
                    }
                }, "\(gateway.logs)")
            let nothing = try gateway.receipt(transactions: [Receipt.transaction(SampleContent.coinsId, "150001")])
            #expect(try gateway.deployment.request(path, method: "POST", body: Receipt.body(nothing)).status == 403)
            #expect(try gateway.deployment.request(path).status == 401)
        }

        @Test func productIdsNeverBecomePaths() throws {
            let gateway = try VerifyDeployment(delivery: "stream")
            defer { gateway.stop() }
            let token = try Self.token(gateway, receipt: try Self.buyer(gateway))
            for hostile in [
                "..%2Fcatalog.yaml", "%2e%2e%2fcatalog.yaml", "issues/1.bin", "issues%2F1.bin", "com.example.issue1%00",
                "..", "%2e%2e", "com.example.issue1/../../catalog.yaml", "com.example.nope", "",
            ] {
                let answer = try gateway.download(hostile, token: token)
                #expect(SampleContent.sha256(answer.body) != SampleContent.issueSHA256)
                if hostile.hasSuffix("%00") {
                    #expect(answer.status == 400, "nginx refuses NUL in URIs itself")
                    continue
                }
                #expect(answer.status == 404, "\(hostile): \(answer.text)")
                #expect(answer.errorCode == "unknown_product" || answer.errorCode == "not_found", "\(hostile)")
            }
            let noContent = try gateway.download(SampleContent.monthlyId, token: token)
            #expect(noContent.status == 404)
            #expect(noContent.errorCode == "no_content")
        }

        /// A path under the download route with a `.` or `..` segment reaches no route (docs/API.md): nginx places it
        /// by the path with those resolved, the gateway would route the path as sent, so the two would disagree.
        @Test func aPathWithADotSegmentReachesNoRoute() throws {
            let gateway = try VerifyDeployment(delivery: "stream")
            defer { gateway.stop() }
            let token = try Self.token(gateway, receipt: try Self.buyer(gateway))
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            let id = SampleContent.issueId
            for path in ["./\(id)", "%2e/\(id)", "special/../\(id)", "special/%2E%2e/\(id)"] {
                let answer = try gateway.download(path, token: token)
                #expect(answer.status == 404, "\(path): \(answer.text)")
                #expect(answer.errorCode == "not_found", "\(path): \(answer.text)")
            }
        }

        @Test func aRefundRecordedAfterTheTokenBlocksTheDownload() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipt = try Self.buyer(gateway, original: "160001")
            let token = try Self.token(gateway, receipt: receipt)
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            try Self.refund(gateway, original: "160001")
            let blocked = try gateway.download(SampleContent.issueId, token: token)
            #expect(blocked.status == 403)
            #expect(blocked.errorCode == "not_entitled")
        }
    }
}

extension EndToEnd.Download {
    @Test func aClientThatGoesAwayStopsTheStream() throws {
        let gateway = try VerifyDeployment(delivery: "stream")
        defer { gateway.stop() }
        // A 32 MiB product, more than every socket buffer between the gateway and the client holds.
        let folder = gateway.deployment.folder
        let big = folder.appendingPathComponent("content/issues/big.bin")
        _ = FileManager.default.createFile(atPath: big.path, contents: nil)
        try FileHandle(forWritingTo: big).truncate(atOffset: 32 << 20)
        try
            (SampleContent.catalog
            + "\n  - { id: com.example.big, type: non-consumable, title: Big, content: issues/big.bin }\n")
            .write(to: folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
        gateway.deployment.gateway.signal(SIGHUP)
        #expect(ManagedProcess.poll(for: .seconds(10)) { gateway.deployment.gateway.log.contains("reloaded") })
        let receipt = try gateway.receipt(transactions: [Receipt.transaction("com.example.big", "210001")])
        let token = try #require(try gateway.verify(receipt).downloadToken(for: "com.example.big"))

        let busy = { () -> Int in
            ((try? gateway.deployment.request("/v1/status"))?.json["workers"] as? [String: Any])?["busy"] as? Int ?? -1
        }
        let reader = try HTTPClient.open(port: gateway.deployment.port)
        try reader.send(
            "GET /v1/download/com.example.big HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer \(token)\r\n\r\n")
        #expect(try reader.receive(atLeast: 64 << 10) >= 64 << 10)
        // The client stops reading: the stream is held, a worker waits on it.
        #expect(ManagedProcess.poll(for: .seconds(10)) { busy() >= 2 }, "the stream should hold a worker")
        reader.close()
        // The client is gone: the stream stops and its worker is free (only the status request is busy).
        #expect(ManagedProcess.poll(for: .seconds(10)) { busy() == 1 })
    }
}
