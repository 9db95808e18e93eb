import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Content in S3-compatible storage and behind a CDN, through real nginx: a gateway with no content folder
    /// hands out presigned S3 URLs (`s3-presigned`), has nginx fetch them (`s3-proxy`), or hands out CloudFront
    /// signed URLs (`cloudfront`); the storage stand-in refuses what real S3 and CloudFront refuse.
    @Suite struct RemoteContent {
        /// A gateway with a download route delivering as `delivery`, for the command line.
        static func setup(_ delivery: String) -> GatewaySetup {
            var setup = GatewaySetup()
            setup.routes.append(("/v1/download", "download"))
            setup.delivery = delivery
            setup.extra =
                "tokens:\n  secret: \(VerifyDeployment.tokenSecret)\napple:\n  bundle_ids: [\(SampleContent.bundleId)]\n"
            return setup
        }

        @Test(arguments: ["s3-presigned", "cloudfront"])
        func aTokenDownloadIsARedirectToALinkTheStorageHonoursUntilItExpires(_ delivery: String) throws {
            let storage = try StorageStandIn()
            defer { storage.stop() }
            let gateway = try VerifyDeployment(
                environment: storage.environment(delivery), delivery: delivery, catalog: StorageStandIn.catalog)
            defer { gateway.stop() }
            #expect(!FileManager.default.fileExists(atPath: gateway.deployment.folder.path + "/content"))
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))

            let answer = try gateway.download(SampleContent.issueId, token: token)
            #expect(answer.status == 302, "\(answer.text)")
            #expect(answer.header("Cache-Control") == "private, no-store")
            let link = try #require(answer.header("Location"))
            let port = delivery == "cloudfront" ? storage.cdnPort : storage.s3Port
            #expect(link.hasPrefix("http://127.0.0.1:\(port)/"))
            let fetched = try storage.fetch(link)
            #expect(fetched.status == 200, "\(fetched.text)")
            #expect(SampleContent.sha256(fetched.body) == SampleContent.issueSHA256)
            if delivery == "s3-presigned" {
                // S3 answers with the catalog's type and the file's name (response-content-*).
                #expect(fetched.header("Content-Disposition") == "attachment; filename=\"issue 1+final.bin\"")
                #expect(fetched.header("Content-Type") == "application/octet-stream")
                let range = try storage.fetch(link, headers: [("Range", "bytes=100-199")])
                #expect(range.status == 206)
                #expect(range.body == Array(SampleContent.issueBytes[100..<200]))
            }
            // An S3 link made for a HEAD serves HEAD alone and delivers nothing, so it is not recorded; a CloudFront
            // link serves a GET whatever it was made for, so it is recorded as a delivery.
            let head = try gateway.download(SampleContent.issueId, token: token, method: "HEAD")
            #expect(head.status == 302)
            let headLink = try #require(head.header("Location"))
            #expect(try storage.fetch(headLink, method: "HEAD").status == 200)
            let bytesThroughHEAD = try storage.fetch(headLink)
            let deliveries = try SQLiteLedger(path: gateway.ledgerPath)
                .deliveries(environment: "Production", originalTransactionId: "140001")
            #expect(deliveries.allSatisfy { $0.contentSHA256 == SampleContent.issueSHA256 })
            if delivery == "s3-presigned" {
                #expect(bytesThroughHEAD.status == 403)
                #expect(deliveries.count == 1)
            } else {
                #expect(bytesThroughHEAD.status == 200)
                #expect(deliveries.count == 2)
            }

            // A link is not a token: the storage takes it until it expires (300 s), and then never again.
            try storage.advanceClock(seconds: 298)
            #expect(try storage.fetch(link).status == 200)
            try storage.advanceClock(seconds: 3)
            let expired = try storage.fetch(link)
            #expect(expired.status == 403, "\(expired.text)")

            // Neither the storage's secret nor a link's signature is written in a log.
            let logs = try gateway.logs(through: head)
            for secret in [StorageStandIn.secretAccessKey, "X-Amz-Signature", "Signature=", "PRIVATE KEY"] {
                #expect(!logs.contains(secret), "\(secret)")
            }
        }

        @Test func s3ProxyServesTheBytesAndRangesWithoutShowingTheStorage() throws {
            let storage = try StorageStandIn()
            defer { storage.stop() }
            let gateway = try VerifyDeployment(
                environment: storage.environment("s3-proxy"), delivery: "s3-proxy", catalog: StorageStandIn.catalog)
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway))
            let cookie = ("Cookie", "session=do-not-forward")

            let whole = try gateway.download(SampleContent.issueId, token: token, headers: [cookie])
            #expect(whole.status == 200, "\(whole.text)")
            #expect(SampleContent.sha256(whole.body) == SampleContent.issueSHA256)
            #expect(whole.header("Content-Disposition") == "attachment; filename=\"issue 1+final.bin\"")
            #expect(whole.header("Location") == nil && whole.header("X-Accel-StoreGate-Fetch") == nil)
            #expect(whole.header("x-amz-request-id") == nil && whole.header("x-amz-id-2") == nil)

            let range = try gateway.download(
                SampleContent.issueId, token: token, headers: [("Range", "bytes=100-199"), cookie])
            #expect(range.status == 206)
            #expect(range.body == Array(SampleContent.issueBytes[100..<200]))
            #expect(range.header("Content-Range") == "bytes 100-199/\(SampleContent.issueBytes.count)")

            // The storage saw GETs signed by the gateway in their headers (the URL opens nothing), with the Range,
            // and nothing of the client's: no cookie, not its token.
            let seen = try storage.requests().filter { ($0["path"] as? String ?? "").contains("/issues/") }
            #expect(seen.count == 2)
            for request in seen {
                #expect(request["cookie"] == nil || request["cookie"] is NSNull)
                let authorization = request["authorization"] as? String ?? ""
                #expect(authorization.hasPrefix("AWS4-HMAC-SHA256 Credential=\(StorageStandIn.accessKeyId)/"))
                #expect(!(request["query"] as? [String] ?? []).contains { $0.hasPrefix("X-Amz-") })
            }
            #expect(seen.last?["range"] as? String == "bytes=100-199")

            // A POST download with the receipt in its body is fetched with GET, and the body stays here.
            let receipt = try Download.buyer(gateway)
            let posted = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", body: Receipt.body(receipt))
            #expect(posted.status == 200, "\(posted.text)")
            #expect(SampleContent.sha256(posted.body) == SampleContent.issueSHA256)
            #expect(try storage.requests().last?["method"] as? String == "GET")
        }

        @Test(arguments: ["s3-presigned", "s3-proxy", "cloudfront"])
        func aRefundedPurchaseGetsNoLink(_ delivery: String) throws {
            let storage = try StorageStandIn()
            defer { storage.stop() }
            let gateway = try VerifyDeployment(
                environment: storage.environment(delivery), delivery: delivery, catalog: StorageStandIn.catalog)
            defer { gateway.stop() }
            let token = try Download.token(gateway, receipt: try Download.buyer(gateway, original: "160001"))
            try Download.refund(gateway, original: "160001")
            let blocked = try gateway.download(SampleContent.issueId, token: token)
            #expect(blocked.status == 403)
            #expect(blocked.errorCode == "not_entitled")
            #expect(blocked.header("Location") == nil)
            #expect(try storage.requests().filter { ($0["path"] as? String ?? "").contains("/issues/") }.isEmpty)
        }

        /// Through the bucket (`content.s3`), or through the CDN when the gateway has only `content.cloudfront`.
        @Test(arguments: ["s3-presigned", "cloudfront"])
        func contentMeasureWritesTheCatalogAndCheckConfigRemoteFindsEveryObject(_ delivery: String) throws {
            let storage = try StorageStandIn()
            defer { storage.stop() }
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let catalogFile = folder.appendingPathComponent("catalog.yaml")
            let objectLine = "object: \"\(StorageStandIn.issueKey)\""
            try SampleContent.catalog.replacingOccurrences(of: "content: \(SampleContent.issuePath)", with: objectLine)
                .write(to: catalogFile, atomically: true, encoding: .utf8)
            let setup = Self.setup(delivery)
            let config = folder.appendingPathComponent("storegate.yaml")
            try Deployment.config(setup, listenLine: "  listen: 127.0.0.1:9000\n")
                .write(to: config, atomically: true, encoding: .utf8)
            let run = { (arguments: [String]) in
                try CommandLine.run(arguments, environment: storage.environment(delivery))
            }

            // An object without its size and digest: the catalog does not load, and says how to get them.
            let unmeasured = try run(["check-config", "--config", config.path])
            #expect(unmeasured.status == 1)
            #expect(unmeasured.output.contains("size: is required for an object (storegate content measure writes it"))

            let measured = try run(["content", "measure", "--config", config.path])
            #expect(measured.status == 0, "\(measured.output)\(measured.errors)")
            #expect(
                measured.output.contains(
                    "\(SampleContent.issueId): \(StorageStandIn.issueKey), \(SampleContent.issueBytes.count) bytes, "
                        + "sha256 \(SampleContent.issueSHA256)"))
            let written = try String(contentsOf: catalogFile, encoding: .utf8)
            #expect(written.contains("sha256: \"\(SampleContent.issueSHA256)\""))
            let found = try run(["check-config", "--config", config.path, "--remote"])
            #expect(found.status == 0, "\(found.output)")
            #expect(found.output.contains("1 storage object found"))

            // The storage holds other bytes than the catalog says, or nothing at that key.
            let size = "size: \(SampleContent.issueBytes.count)"
            try written.replacingOccurrences(of: size, with: "size: 39999").write(
                to: catalogFile, atomically: true, encoding: .utf8)
            let wrongSize = try run(["check-config", "--config", config.path, "--remote"])
            #expect(wrongSize.status == 1)
            #expect(
                wrongSize.output.contains(
                    "catalog: product \(SampleContent.issueId): object \(StorageStandIn.issueKey) is "
                        + "\(SampleContent.issueBytes.count) bytes in the storage, the catalog says 39999"))
            let gone = written.replacingOccurrences(of: StorageStandIn.issueKey, with: "issues/gone.bin")
            try gone.write(to: catalogFile, atomically: true, encoding: .utf8)
            let missing = try run(["check-config", "--config", config.path, "--remote"])
            #expect(missing.status == 1)
            #expect(missing.output.contains("object issues/gone.bin is not in the storage"))
            // Without --remote nothing is asked of the storage.
            #expect(try run(["check-config", "--config", config.path]).status == 0)
            // An object that cannot be read leaves the catalog as it was.
            let failed = try run(["content", "measure", "--config", config.path])
            #expect(failed.status == 1)
            #expect(failed.errors.contains("1 of 1 objects could not be read; the catalog is unchanged"))
            #expect(try String(contentsOf: catalogFile, encoding: .utf8) == gone)
        }

        @Test func theStorageSettingsAreCheckedInWords() throws {
            let folder = try SampleContent.makeFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let config = folder.appendingPathComponent("storegate.yaml")
            let check = { (delivery: String, environment: [String: String]) in
                try Deployment.config(Self.setup(delivery), listenLine: "  listen: 127.0.0.1:9000\n")
                    .write(to: config, atomically: true, encoding: .utf8)
                return try CommandLine.run(["check-config", "--config", config.path], environment: environment)
            }
            let s3 = try check(
                "s3-presigned",
                [
                    "STOREGATE_CONTENT_S3_BUCKET": "content.example.com", "STOREGATE_CONTENT_S3_REGION": "eu-west-1",
                    "STOREGATE_CONTENT_S3_ENDPOINT": "http://storage.example.com",
                    "STOREGATE_CONTENT_S3_ACCESS_KEY_ID": "AKIAEXAMPLE",
                ])
            #expect(s3.status == 1)
            for line in [
                "STOREGATE_CONTENT_S3_ENDPOINT (content.s3.endpoint): must use https",
                "STOREGATE_CONTENT_S3_BUCKET (content.s3.bucket): \"content.example.com\" cannot be named in a host name (virtual-hosted addressing): set addressing: path",
                "content.s3.secret_access_key: is required (or STOREGATE_CONTENT_S3_SECRET_ACCESS_KEY in the environment)",
                // The sample catalog's issue is a local file.
                "content.delivery: s3-presigned delivers objects from the storage, but product com.example.issue1 names a local file",
            ] {
                #expect(s3.output.contains(line), "\(line)\n\(s3.output)")
            }
            let cloudFront = try check(
                "cloudfront",
                [
                    "STOREGATE_CONTENT_CLOUDFRONT_URL": "https://d111111abcdef8.cloudfront.net/",
                    "STOREGATE_CONTENT_CLOUDFRONT_KEY_PAIR_ID": "K2JCJMDEHXQW5F",
                    "STOREGATE_CONTENT_CLOUDFRONT_PRIVATE_KEY": "-----BEGIN PRIVATE KEY-----\nnot a key\n",
                ])
            #expect(
                cloudFront.output.contains(
                    "STOREGATE_CONTENT_CLOUDFRONT_PRIVATE_KEY (content.cloudfront.private_key): is not an RSA private key in PEM"
                ), "\(cloudFront.output)")
            #expect(!cloudFront.output.contains("not a key"))
        }
    }
}
