import Foundation
import GatewayHandlerAPI
import GatewayServer
import Logging
import StoreGateApp
import Testing

/// The compiled-in handlers, loaded from a real config the way `storegate serve` loads them.
struct LoadedGateway {
    let application: GatewayApplication
    let stats = GatewayStats()

    init(extraProducts: String = "") throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "handlers-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("content"), withIntermediateDirectories: true)
        try Data("issue".utf8).write(to: folder.appendingPathComponent("content/i.pdf"))
        try
            ("products:\n  - { id: p.issue, type: non-consumable, title: Issue, content: i.pdf, content_type: application/pdf }\n"
            + extraProducts)
            .write(to: folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
        let config = folder.appendingPathComponent("storegate.yaml")
        try
            "routes:\n  - { path: /v1/catalog, handler: catalog }\n  - { path: /v1/status, handler: status }\ncatalog: { file: catalog.yaml }\n"
            .write(to: config, atomically: true, encoding: .utf8)
        application = try GatewayApplication.load(
            configFile: config.path,
            registry: .compiledIn,
            stores: StoreGateCLI.compiledInStores,
            environment: [:],
            runtime: GatewayRuntime(stats: stats, logger: Logger(label: "test"))
        )
    }

    func get(_ path: String, headers: [(name: String, value: String)] = []) -> GatewayResponse {
        let request = GatewayRequest(method: .get, path: path, headers: headers)
        return application.exchange(for: request).respond()
    }
}

@Suite struct CatalogHandlerTests {
    @Test func theCompiledInRegistryHasTheShippedHandlers() {
        #expect(
            HandlerRegistry.compiledIn.names == [
                "catalog", "download", "entitlements", "metrics", "notifications", "offers", "restore-sync", "status",
                "support", "verify",
            ])
    }

    @Test func answersThePrerenderedCatalogWithItsTag() throws {
        let gateway = try LoadedGateway()
        let response = gateway.get("/v1/catalog")
        #expect(response.status == 200)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let version = try #require(json["version"] as? String)
        #expect(version.count == 32)
        #expect(response.header("ETag") == "\"\(version)\"")
        #expect(gateway.get("/v1/catalog").body == response.body)
    }

    @Test func ifNoneMatchFormsFollowRFC9110() throws {
        let gateway = try LoadedGateway()
        let etag = try #require(gateway.get("/v1/catalog").header("ETag"))
        for matching in [etag, "W/\(etag)", "\"x\", \(etag)", " \(etag) ", "*"] {
            #expect(
                gateway.get("/v1/catalog", headers: [("HTTP_IF_NONE_MATCH", matching)]).status == 304, "\(matching)")
        }
        for other in ["\"x\"", etag.replacingOccurrences(of: "\"", with: ""), ""] {
            #expect(gateway.get("/v1/catalog", headers: [("HTTP_IF_NONE_MATCH", other)]).status == 200, "\(other)")
        }
    }

    @Test func aDifferentCatalogHasADifferentTag() throws {
        let one = try LoadedGateway().get("/v1/catalog").header("ETag")
        let two = try LoadedGateway(extraProducts: "  - { id: p.more, type: consumable }\n").get("/v1/catalog").header(
            "ETag")
        #expect(one != two)
    }

    @Test func statusCountsWhatTheTransportRecorded() throws {
        let gateway = try LoadedGateway()
        let workers = (0..<4).map { _ in gateway.stats.makeWorkerCounters() }
        workers[0].record(status: 200)
        workers[1].record(status: 200)
        workers[3].record(status: 404)
        workers[2].setBusy(true)
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(gateway.get("/v1/status").body)) as? [String: Any])
        #expect((json["workers"] as? [String: Int]) == ["total": 4, "busy": 1])
        let requests = try #require(json["requests"] as? [String: Any])
        #expect(requests["total"] as? Int == 3)
        #expect((requests["by_status"] as? [String: Int]) == ["200": 2, "404": 1])
        #expect(json["ledger"] is NSNull)
    }
}
