import ConfigYAML
import Foundation
import GatewayCore
import GatewayHandlerAPI

extension GatewayApplication {
    /// What a binary's composition root builds one load's capabilities from: the whole config document, the
    /// process's runtime, and the load's store of values built once.
    package struct Inputs: Sendable {
        package let config: ConfigReader
        package let runtime: GatewayRuntime
        package let store: SharedStore
    }

    /// Loads `configFile` and builds every configured route with the modules of `registry`, handing each the
    /// capabilities its module declares, from the provider `capabilities` makes for this load.
    ///
    /// Throws ``ConfigProblems`` listing every problem found, each under its key path, so `check-config`
    /// and a refused reload can name them all at once.
    package static func load(
        configFile: String,
        registry: HandlerRegistry,
        environment: [String: String],
        runtime: GatewayRuntime,
        capabilities: (Inputs) -> any CapabilityProvider
    ) throws(ConfigProblems) -> GatewayApplication {
        let reader = try documentReader(configFile: configFile, environment: environment)
        let server = ServerSettings(reader.scoped("server"))
        let log = LogSettings(reader.scoped("log"))
        var thrown: [ConfigProblem] = []
        let store = SharedStore()
        let provider = capabilities(Inputs(config: reader, runtime: runtime, store: store))
        let sections = reader.scoped("handlers")
        var routes: [Router.Route] = []
        for declared in declaredRoutes(reader) {
            guard let module = registry.module(named: declared.handler) else {
                let known = registry.names.joined(separator: ", ")
                declared.reader.report("handler", "unknown handler \"\(declared.handler)\"; this build has: \(known)")
                continue
            }
            let setup = HandlerSetup(
                name: module.name, routePath: declared.path, config: sections.scoped(module.name).isolated(),
                logger: runtime.logger, metricsFactory: HandlerMetricsFactory(base: runtime.metrics.factory),
                declare: { [metrics = runtime.metrics] codes in metrics.declare(codes) })
            // Read before the handler is set up, so that a route whose setup fails still has its keys checked.
            let limiter = rateLimiter(declared.reader)
            let reported = reader.problems.count
            do {
                var responder = try module.makeResponder(
                    setup, capabilities: CapabilitySource(provider, routePath: declared.path))
                if let limiter {
                    responder = MiddlewareResponder(middleware: RateLimitMiddleware(limiter: limiter), inner: responder)
                }
                routes.append(
                    Router.Route(
                        path: declared.path,
                        handlerName: module.name,
                        methods: module.methods,
                        servesSubpaths: module.servesSubpaths,
                        responder: responder
                    )
                )
            } catch let problems as ConfigProblems {
                thrown += problems.problems
                // Problems are reported to the reader, or thrown; a route that fails with no error in either (none
                // at all, or warnings only, which would let the load go on without the route) still fails.
                if problems.errors.isEmpty, !reader.problems.dropFirst(reported).contains(where: { !$0.isWarning }) {
                    thrown.append(
                        ConfigProblem(
                            keyPath: declared.reader.keyPath("handler"),
                            message: "\(module.name) could not be set up, and did not say why"))
                }
            } catch {
                thrown.append(ConfigProblem(keyPath: declared.reader.keyPath("handler"), message: "\(error)"))
            }
        }
        var seen = Set<ConfigProblem>()
        let found = (registry.problems + reader.problems + thrown).filter { seen.insert($0).inserted }
        // Warnings ride along with the errors, so one run of check-config reports everything.
        let warnings =
            found.filter(\.isWarning) + reader.unusedKeyWarnings
            + reader.unusedVariableWarnings(ignoring: isNotAConfigKey)
        let errors = found.filter { !$0.isWarning }
        guard errors.isEmpty else { throw ConfigProblems(errors + warnings) }
        return GatewayApplication(
            server: server,
            router: Router(routes: routes),
            log: log,
            warnings: warnings,
            runtime: runtime,
            store: store
        )
    }

    /// `STOREGATE_…` variables that are not config keys: the CGI config path and account, the quickstart's and
    /// the tests' own.
    private static func isNotAConfigKey(_ variable: String) -> Bool {
        ["STOREGATE_CONFIG", "STOREGATE_ACCOUNT"].contains(variable) || variable.hasPrefix("STOREGATE_TEST_")
            || variable.hasPrefix("STOREGATE_QUICKSTART_")
    }

    private static func documentReader(configFile: String, environment: [String: String]) throws(ConfigProblems)
        -> ConfigReader
    {
        let document = try ConfigValue.read(file: configFile, describedAs: "the config file")
        guard case .mapping = document else {
            throw ConfigProblems([ConfigProblem(keyPath: configFile, message: "must be a YAML mapping of sections")])
        }
        let folder = URL(fileURLWithPath: configFile).standardizedFileURL.deletingLastPathComponent().path
        return ConfigReader(document: document, yamlBaseDirectory: folder, environment: environment)
    }

    private struct DeclaredRoute {
        let path: String
        let handler: String
        let reader: ConfigReader
    }

    /// The `routes` list, with each entry's own problems (bad or repeated paths) recorded.
    /// A route's `rate_per_s` and `rate_burst` (default twice the rate): requests per client address.
    private static func rateLimiter(_ route: ConfigReader) -> ClientRateLimiter? {
        guard route.value("rate_per_s") != nil else { return nil }
        let perSecond = route.int("rate_per_s", default: 10, in: 1...1_000_000)
        return ClientRateLimiter(
            perSecond: Double(perSecond), burst: route.int("rate_burst", default: 2 * perSecond, in: 1...1_000_000))
    }

    private static func declaredRoutes(_ reader: ConfigReader) -> [DeclaredRoute] {
        let entries = reader.sequence("routes")
        if entries.isEmpty { reader.report("routes", "no routes are configured, so every request would be 404") }
        var seen = Set<String>()
        return entries.compactMap { entry in
            let path = entry.requiredString("path")
            let handler = entry.requiredString("handler")
            guard let path, let handler else { return nil }
            guard path.hasPrefix("/"), !path.contains("?"), !path.contains("%"), !path.contains("//") else {
                entry.report(
                    "path", "\"\(path)\" must be an absolute path such as /v1/catalog, without query or escapes")
                return nil
            }
            let normalized = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
            guard seen.insert(normalized).inserted else {
                entry.report("path", "\"\(path)\" is already routed")
                return nil
            }
            return DeclaredRoute(path: normalized, handler: handler, reader: entry)
        }
    }
}
