import Foundation
import Testing

extension EndToEnd {
    @Suite struct CatalogRoute {
        @Test func catalogListsProductsWithMeasuredContent() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            let response = try deployment.request("/v1/catalog")
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            #expect(response.header("Cache-Control") == "public, max-age=60")
            let products = try #require(response.json["products"] as? [[String: Any]])
            #expect(
                products.map { $0["id"] as? String } == [
                    SampleContent.issueId, SampleContent.monthlyId, SampleContent.coinsId,
                ])
            let content = try #require(products[0]["content"] as? [String: Any])
            #expect(content["size"] as? Int == SampleContent.issueBytes.count)
            #expect(content["sha256"] as? String == SampleContent.issueSHA256)
            #expect(content["content_type"] as? String == "application/octet-stream")
            #expect(products[1]["content"] is NSNull)
            #expect(products[2]["store_ids"] as? [String: String] == ["google-play": SampleContent.googleCoinsId])
            let version = try #require(response.json["version"] as? String)
            #expect(response.header("ETag") == "\"\(version)\"")
        }

        @Test func matchingIfNoneMatchIsNotModified() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            let etag = try #require(try deployment.request("/v1/catalog").header("ETag"))
            for candidate in [etag, "W/\(etag)", "\"stale\", \(etag)", "*"] {
                let response = try deployment.request("/v1/catalog", headers: [("If-None-Match", candidate)])
                #expect(response.status == 304, "If-None-Match: \(candidate)")
                #expect(response.body.isEmpty)
                #expect(response.header("ETag") == etag)
            }
            let stale = try deployment.request("/v1/catalog", headers: [("If-None-Match", "\"stale\"")])
            #expect(stale.status == 200)
        }

        @Test func unknownPathsMethodsAndHead() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            let missing = try deployment.request("/v1/nothing-here")
            #expect(missing.status == 404)
            #expect(missing.errorCode == "not_found")
            #expect(missing.header("Content-Type") == "application/json")
            #expect(try deployment.request("/v1/catalog/").status == 404)

            let post = try deployment.request("/v1/catalog", method: "POST", body: Array("{}".utf8))
            #expect(post.status == 405)
            #expect(post.errorCode == "method_not_allowed")
            #expect(post.header("Allow") == "GET, HEAD")

            let get = try deployment.request("/v1/catalog")
            let head = try deployment.request("/v1/catalog", method: "HEAD")
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(get.body.count))
            #expect(head.header("ETag") == get.header("ETag"))
        }

        @Test func requestIdsAreEchoedOrMade() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            let echoed = try deployment.request("/v1/catalog", headers: [("X-Request-Id", "client-42.a")])
            #expect(echoed.header("X-Request-Id") == "client-42.a")
            let onError = try deployment.request("/v1/nope", headers: [("X-Request-Id", "client-43")])
            #expect(onError.header("X-Request-Id") == "client-43")
            let hostile = try deployment.request("/v1/catalog", headers: [("X-Request-Id", "a b\"<script>")])
            let made = try #require(hostile.header("X-Request-Id"))
            #expect(made != "a b\"<script>")
            let another = try #require(try deployment.request("/v1/catalog").header("X-Request-Id"))
            #expect(!made.isEmpty && made != another)
        }

        @Test func statusReportsWorkersAndCounts() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            _ = try deployment.request("/v1/catalog")
            _ = try deployment.request("/v1/missing")
            let status = try deployment.request("/v1/status")
            #expect(status.status == 200)
            let workers = try #require(status.json["workers"] as? [String: Any])
            #expect(workers["total"] as? Int == 16)
            #expect(workers["busy"] as? Int == 1)  // the status request itself
            let requests = try #require(status.json["requests"] as? [String: Any])
            let byStatus = try #require(requests["by_status"] as? [String: Int])
            #expect(byStatus["200"] ?? 0 >= 1)
            #expect(byStatus["404"] ?? 0 >= 1)
            #expect(requests["total"] as? Int == byStatus.values.reduce(0, +))
            #expect(status.json["version"] as? String == "0.1.0")
            #expect(status.json["uptime_s"] is Int)
        }
    }
}
