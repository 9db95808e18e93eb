import ConfigYAML
import GatewayCore
import GatewayHandlerAPI
import Testing

@Suite struct ConfigReaderTests {
    private func reader(_ yaml: String, environment: [String: String] = [:]) throws -> ConfigReader {
        try ConfigReader(
            yaml: yaml, source: "test.yaml", baseDirectory: "/etc/storegate",
            environment: environment
        )
    }

    @Test func environmentOverridesFileValues() throws {
        let config = try reader(
            "server:\n  workers: 8\napple:\n  shared_secret: from-file\n",
            environment: ["STOREGATE_SERVER_WORKERS": "32", "STOREGATE_APPLE_SHARED_SECRET": "from-env"]
        )
        #expect(config.scoped("server").int("workers", default: 1, in: 1...100) == 32)
        #expect(config.scoped("apple").string("shared_secret") == "from-env")
        #expect(config.scoped("apple").environmentVariable(for: "shared_secret") == "STOREGATE_APPLE_SHARED_SECRET")
    }

    @Test func environmentCanSetKeysTheFileLacksAndWholeLists() throws {
        let config = try reader(
            "server: {}\n",
            environment: [
                "STOREGATE_APPLE_BUNDLE_IDS": "[com.a, com.b]",
                "STOREGATE_APPLE_OTHER_IDS": "x, y",
                "STOREGATE_ROUTES": "[{path: /v1/status, handler: status}]",
            ]
        )
        #expect(config.scoped("apple").stringList("bundle_ids") == ["com.a", "com.b"])
        #expect(config.scoped("apple").stringList("other_ids") == ["x", "y"])
        let routes = config.sequence("routes")
        #expect(routes.count == 1)
        #expect(routes.first?.string("path") == "/v1/status")
        #expect(routes.first?.environmentVariable(for: "path") == nil)
    }

    @Test func aSectionIsConfiguredByTheFileOrByTheEnvironment() throws {
        let file = try reader("apple:\n  bundle_ids: [com.a]\n", environment: ["STOREGATE_LEDGERS": "x"])
        #expect(file.hasSection("apple"))
        #expect(!file.hasSection("ledger"))  // STOREGATE_LEDGERS is not a key of ledger
        let environment = try reader("server: {}\n", environment: ["STOREGATE_APPLE_BUNDLE_IDS": "[com.a]"])
        #expect(environment.hasSection("apple"))
        #expect(!environment.hasSection("tokens"))
    }

    @Test func everyBadValueIsRecordedWithItsKeyPathAndDefaultsStand() throws {
        let config = try reader("server:\n  workers: many\n  max: 0\n  debug: maybe\nroutes: nope\n")
        let server = config.scoped("server")
        #expect(server.int("workers", default: 128, in: 1...4096) == 128)
        #expect(server.int("max", default: 5, in: 1...10) == 5)
        #expect(server.bool("debug", default: false) == false)
        #expect(config.sequence("routes").isEmpty)
        #expect(config.problems.map(\.keyPath) == ["server.workers", "server.max", "server.debug", "routes"])
        #expect(config.problems[0].message == "must be a whole number, not \"many\"")
    }

    @Test func relativePathsResolveAgainstTheConfigFolder() throws {
        let config = try reader("catalog:\n  file: catalog.yaml\n  other: /srv/x.yaml\n  up: ../shared/c.yaml\n")
        let catalog = config.scoped("catalog")
        #expect(catalog.path("file") == "/etc/storegate/catalog.yaml")
        #expect(catalog.path("other") == "/srv/x.yaml")
        #expect(catalog.path("up") == "/etc/shared/c.yaml")
        #expect(catalog.path("absent", default: "content") == "/etc/storegate/content")
    }

    @Test func keysNobodyReadAreReportedAsUnused() throws {
        let config = try reader(
            "server:\n  workers: 4\n  wrokers: 5\nroutes:\n  - { path: /a, handler: b, extra: 1 }\nlegacy: true\n"
        )
        _ = config.scoped("server").int("workers", default: 1, in: 1...10)
        for route in config.sequence("routes") {
            _ = route.string("path")
            _ = route.string("handler")
        }
        #expect(config.unusedKeys == ["legacy", "routes[0].extra", "server.wrokers"])
    }

    @Test func malformedYAMLIsAProblemNamingTheFile() {
        #expect(throws: ConfigProblems.self) { try ConfigValue.parse(yaml: "a: [1, 2\n", source: "bad.yaml") }
        do {
            _ = try ConfigValue.parse(yaml: "a: 1\na: 2\n", source: "dup.yaml")
            Issue.record("duplicate keys must not load silently")
        } catch {
            #expect(error.problems.first?.keyPath == "dup.yaml")
        }
    }
}
