import CoreMetrics
import Foundation
import GatewayHandlerAPI
import Logging
import Prometheus
import Synchronization
import Testing

@testable import GatewayServer

/// What a handler module is built from, and what it is not: a registry where a name is one module's, a config
/// reader holding its own section's environment only, a metrics factory that is not the gateway's.
/// Serialized: the spy records every setup it is built from in one list.
@Suite(.serialized) struct HandlerSetupTests {
    /// The setups the spy handler was built from.
    static let setups = Mutex<[HandlerSetup]>([])

    struct Spy: GatewayHandler {
        static let name = "spy"
        init(_ setup: HandlerSetup, needs: NoNeeds) { HandlerSetupTests.setups.withLock { $0.append(setup) } }
        func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
            GatewayResponse(status: 204)
        }
    }

    struct Twin: GatewayHandler {
        static let name = "spy"
        init(_ setup: HandlerSetup, needs: NoNeeds) {}
        func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
            GatewayResponse(status: 204)
        }
    }

    struct Shouting: GatewayHandler {
        static let name = "SPY"
        init(_ setup: HandlerSetup, needs: NoNeeds) {}
        func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
            GatewayResponse(status: 204)
        }
    }

    /// Fails to set up without saying why (no problem reported, none thrown).
    struct Quiet: GatewayHandler {
        static let name = "spy"
        init(_ setup: HandlerSetup, needs: NoNeeds) throws { throw ConfigProblems([]) }
        func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
            GatewayResponse(status: 204)
        }
    }

    /// How often a needs type of a module's own was handed a capability source.
    static let sourcesSeen = Mutex(0)

    /// A `Needs` of a module's own, as an attacker writes it: the route's real capability source would reach it.
    struct OwnNeeds: HandlerNeeds {
        static func provided(by source: CapabilitySource) throws -> Provision<OwnNeeds> {
            HandlerSetupTests.sourcesSeen.withLock { $0 += 1 }
            throw ConfigProblems([ConfigProblem(keyPath: "handlers.spy", message: "left out", isWarning: true)])
        }
    }

    struct Declaring<Needs: HandlerNeeds>: GatewayHandler {
        static var name: String { "spy" }
        init(_ setup: HandlerSetup, needs: Needs) {}
        func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
            GatewayResponse(status: 204)
        }
    }

    private func load(_ registry: HandlerRegistry, environment: [String: String] = [:], metrics: GatewayMetrics)
        throws(ConfigProblems) -> GatewayApplication
    {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("setup-\(UUID()).yaml")
        try? "routes:\n  - { path: /spy, handler: spy }\nhandlers:\n  spy: { mood: calm }\n"
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        return try GatewayApplication.load(
            configFile: file.path, registry: registry, environment: environment,
            runtime: GatewayRuntime(stats: GatewayStats(), metrics: metrics, logger: Logger(label: "test")),
            capabilities: { _ in NoCapabilities() })
    }

    @Test func aNameBelongsToOneModuleAndIsLowercaseWords() {
        let registry = HandlerRegistry([.module(Spy.self), .module(Twin.self), .module(Shouting.self)])
        let problems = registry.problems.map(\.description)
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.contains("Spy") && $0.contains("Twin") && $0.contains("have this name") })
        #expect(problems.contains { $0.contains("Shouting") && $0.contains("not lowercase words") })
        #expect(throws: ConfigProblems.self) { try load(registry, metrics: GatewayMetrics()) }
        #expect(HandlerModule.isValidName("restore-sync"))
        for name in ["", "SPY", "spy_1", "-spy", "spy-", "spy--one", "spy.one"] {
            #expect(!HandlerModule.isValidName(name), "\(name)")
        }
    }

    @Test func aHandlersConfigReaderHoldsItsOwnSectionsEnvironmentOnly() throws {
        let secret = "top-secret-\(UUID().uuidString)"
        let environment = ["STOREGATE_TOKENS_SECRET": secret, "STOREGATE_HANDLERS_SPY_MOOD": "sunny"]
        _ = try load(HandlerRegistry([.module(Spy.self)]), environment: environment, metrics: GatewayMetrics())
        let setup = try #require(Self.setups.withLock { $0.last })
        #expect(setup.config.string("mood") == "sunny")
        #expect(setup.config.scoped("..").string("secret") == nil)
        var reflected = ""
        dump(setup, to: &reflected)
        #expect(!reflected.contains(secret), "the process's environment is reachable from a handler's setup")
    }

    @Test func aHandlersMetricsFactoryIsNotTheGatewaysAndCannotWriteItsSeries() throws {
        let metrics = GatewayMetrics()
        _ = try load(HandlerRegistry([.module(Spy.self)]), metrics: metrics)
        let setup = try #require(Self.setups.withLock { $0.last })
        #expect(!(setup.metricsFactory is PrometheusMetricsFactory))
        #expect(Mirror(reflecting: setup.metricsFactory).children.isEmpty, "the gateway's factory is a child")
        // Spelt as the gateway's series, or as what the exposition turns into one (`-` becomes `_` there).
        for label in ["storegate_downloads_granted_total", "storegate-downloads_granted_total"] {
            Counter(label: label, factory: setup.metricsFactory).increment(by: 1000)
        }
        Counter(label: "spy_sightings_total", factory: setup.metricsFactory).increment()
        let text = String(decoding: metrics.exposition(stats: GatewayStats()), as: UTF8.self)
        #expect(text.contains("handler_storegate_downloads_granted_total 2000"), "\(text)")
        #expect(!text.contains("\nstoregate_downloads_granted_total"))
        #expect(text.contains("\nhandler_spy_sightings_total 1"))
    }

    /// Dimension names the exposition would write alike (`a-b`, `a_b`), or as Prometheus's own (`le`, `__name__`,
    /// also spelt `-_name__`: Prometheus refused the whole scrape for it), or not at
    /// all as they are: each series keeps distinct, valid names, so the scrape stays readable.
    @Test func aHandlersDimensionsStayDistinctInTheExposition() throws {
        let metrics = GatewayMetrics()
        _ = try load(HandlerRegistry([.module(Spy.self)]), metrics: metrics)
        let setup = try #require(Self.setups.withLock { $0.last })
        let dimensions = [
            ("a-b", "1"), ("a_b", "2"), ("a.b", "3"), ("handler_a_b", "4"), ("le", "5"), ("9lives", "6"), ("", "7"),
            ("é", "8"), ("__name__", "9"), ("-_name__", "10"),
        ]
        Counter(label: "twins", dimensions: dimensions, factory: setup.metricsFactory).increment()
        let text = String(decoding: metrics.exposition(stats: GatewayStats()), as: UTF8.self)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("handler_twins{") }, "\(text)")
        #expect(
            line
                == "handler_twins{a_b=\"1\",handler_a_b=\"2\",handler_handler_a_b=\"3\",handler_handler_handler_a_b=\"4\","
                + "handler_le=\"5\",_9lives=\"6\",_=\"7\",handler__=\"8\",handler___name__=\"9\","
                + "handler_handler___name__=\"10\"} 1")
    }

    /// A metric name outside ASCII (`x\u{FE0F}` is one character, which sorts among the letters, and the
    /// exposition kept it) made the whole scrape unreadable: a handler's names are plain ASCII, scalar by scalar.
    @Test func aHandlersMetricNamesArePlainASCII() throws {
        let metrics = GatewayMetrics()
        _ = try load(HandlerRegistry([.module(Spy.self)]), metrics: metrics)
        let setup = try #require(Self.setups.withLock { $0.last })
        Counter(label: "x\u{FE0F}", factory: setup.metricsFactory).increment(by: 7)
        Counter(label: "b\u{301}:total", factory: setup.metricsFactory).increment()
        let text = metrics.exposition(stats: GatewayStats())
        #expect(text.allSatisfy { $0 < 0x80 }, "\(String(decoding: text, as: UTF8.self))")
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
        #expect(lines.contains("handler_x_ 7"))
        #expect(lines.contains("handler_b_:total 1"))
    }

    @Test func aHandlerThatFailsToSetUpWithoutSayingWhyFailsTheLoad() {
        #expect {
            try load(HandlerRegistry([.module(Quiet.self)]), metrics: GatewayMetrics())
        } throws: { error in
            (error as? ConfigProblems)?.errors.map(\.description)
                == ["routes[0].handler: spy could not be set up, and did not say why"]
        }
    }

    @Test func aModuleWhoseNeedsAreItsOwnIsRefusedBeforeItsNeedsSeeTheSource() {
        let refused: [HandlerModule] = [
            .module(Declaring<OwnNeeds>.self), .module(Declaring<Capabilities<Catalog, OwnNeeds>>.self),
            .module(Declaring<Capabilities<Capabilities<OwnNeeds>>>.self),
        ]
        for module in refused {
            let registry = HandlerRegistry([module])
            #expect(registry.module(named: "spy") == nil)
            let expected =
                "handler \"spy\": \(module.typeName) declares \(module.needs) as its Needs, a type the gateway "
                + "does not hand out; declare NoNeeds, a capability of GatewayHandlerAPI, or Capabilities of them"
            #expect(registry.problems.map(\.description) == [expected])
            #expect {
                try load(registry, metrics: GatewayMetrics())
            } throws: { error in
                (error as? ConfigProblems)?.errors.map(\.description).contains(expected) == true
            }
        }
        #expect(Self.sourcesSeen.withLock { $0 } == 0)
        #expect(refused[1].needs == "Capabilities<Catalog, OwnNeeds>")
        for accepted: HandlerModule in [
            .module(Declaring<NoNeeds>.self), .module(Declaring<Capabilities<Catalog, PurchaseVerifier>>.self),
            .module(Declaring<Capabilities<Capabilities<SupportDesk>, MetricsText>>.self),
        ] {
            #expect(HandlerRegistry([accepted]).problems.isEmpty, "\(accepted.needs)")
        }
    }

    @Test func theGeneratedRegistryMountsHandlerTypesAndNamesWhatIsNotOne() {
        let registry = HandlerRegistry(types: [Spy.self, String.self])
        #expect(registry.module(named: "spy")?.typeName == String(reflecting: Spy.self))
        #expect(
            registry.problems.map(\.description)
                == ["handler module Swift.String: is neither a GatewayHandler nor a ContentHandler"])
    }
}
