import AppStoreReceipts
import ArgumentParser
import ConfigYAML
import FastCGIFront
import Foundation
import GatewayCore
import GatewayHandlerAPI
import GatewayServer
import GatewayText
import GooglePlay
import Logging
import PurchaseLedger
import PurchaseVerification

/// The `storegate` command line (``StoreGateCommand``): `serve`, `check-config`, `ledger copy`,
/// `notifications backfill`, `lookup`, `version`,
/// and plain CGI when run by a web server.
package struct StoreGateCLI: Sendable {
    let registry: HandlerRegistry
    /// The store modules that verify purchases, asked in this order.
    let stores: [any VerifierProvider.Type]
    let environment: [String: String]
    /// The request of a CGI run, taken out of the process before the registry was built.
    let cgiRequest: CGIRequest?
    let logger: Logger
    /// The level every log handler of this process reads; a loaded config's `log.level` sets it.
    let logControl: LogControl

    /// The store modules of the `storegate` binary. A new store is one more entry in this list (and its module in
    /// Package.swift).
    package static let compiledInStores: [any VerifierProvider.Type] = [
        AppStoreVerification.self, GooglePlayVerification.self,
    ]

    /// A command line that builds gateways from the handler modules of `registry` and the store modules `stores`.
    package init(
        registry: HandlerRegistry, stores: [any VerifierProvider.Type] = compiledInStores,
        environment: [String: String] = ProcessInfo.processInfo.environment, cgiRequest: CGIRequest? = nil
    ) {
        self.registry = registry
        self.stores = stores
        self.environment = environment
        self.cgiRequest = cgiRequest
        let logControl = LogControl()
        LoggingSystem.bootstrap { _ in LineLogHandler(control: logControl) }
        self.logControl = logControl
        self.logger = Logger(label: "storegate")
    }

    /// The binary's entry: takes the `STOREGATE_…` config variables (secrets among them) out of the process's
    /// environment, keeping its own copy, libpq's `PG…` variables (``LibPQEnvironment``), in CGI mode the request
    /// itself (``CGIRequest``), and for `serve` what libfcgi reads from the environment, before any handler
    /// module's code runs, then builds the registry and runs `arguments`. The registry comes last because building
    /// it asks each module's `name`, which the module writes: a fifteenth reviewer's `name` getter copied every
    /// secret while the registry was built first.
    package static func main(
        _ arguments: [String], registry: () -> HandlerRegistry, stores: [any VerifierProvider.Type] = compiledInStores
    ) -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        forgetConfigVariables()
        LibPQEnvironment.take()
        let cgiRequest = isCGI(arguments, environment) ? CGIRequest.take() : nil
        if arguments.first == "serve" { try? FastCGIServer.initialiseLibrary() }  // start() reports a failure
        return StoreGateCLI(registry: registry(), stores: stores, environment: environment, cgiRequest: cgiRequest)
            .run(arguments)
    }

    /// Whether a web server runs this process as a CGI program: no arguments, and `GATEWAY_INTERFACE` set.
    private static func isCGI(_ arguments: [String], _ environment: [String: String]) -> Bool {
        arguments.isEmpty && environment["GATEWAY_INTERFACE"] != nil
    }

    /// Runs the command `arguments` (without the program name) and returns the exit status: 0, 1 when the
    /// command failed, 2 for a command line that cannot be run (the usage goes to standard error).
    package func run(_ arguments: [String]) -> Int32 {
        if Self.isCGI(arguments, environment) { return serveCGI(cgiRequest ?? .take()) }
        do {
            var command = try StoreGateCommand.parseAsRoot(arguments)
            if let subcommand = command as? any StoreGateSubcommand { return subcommand.run(in: self) }
            try command.run()  // the parser's own: help, or a command that only names its subcommands
            return 0
        } catch {
            let message = StoreGateCommand.fullMessage(for: error)
            guard StoreGateCommand.exitCode(for: error) == .success else {
                FileHandle.standardError.write(Data((message + "\n").utf8))
                return 2
            }
            print(message)  // --help, --version
            return 0
        }
    }

    /// Removes the `STOREGATE_…` config variables (secrets among them) from the process's environment, once
    /// ``main(_:registry:stores:)`` holds its own copy: a handler module could read them there (`ProcessInfo`,
    /// `getenv`; a fifth reviewer did). `STOREGATE_ACCOUNT` stays: in CGI mode it is the web server's parameter of
    /// the request (``CGIRequest`` takes it).
    private static func forgetConfigVariables() {
        for name in ProcessInfo.processInfo.environment.keys where name.hasPrefix("STOREGATE_") {
            if name != "STOREGATE_ACCOUNT" { unsetenv(name) }
        }
    }

    func load(_ configFile: String, runtime: GatewayRuntime, overrides: [String: String] = [:]) throws(ConfigProblems)
        -> GatewayApplication
    {
        let application = try GatewayApplication.load(
            configFile: configFile,
            registry: registry,
            stores: stores,
            environment: environment.merging(overrides) { _, forced in forced },
            runtime: runtime
        )
        if let group = application.server.socketGroup, getgrnam(group) == nil {
            throw ConfigProblems([
                ConfigProblem(keyPath: "server.socket_group", message: "group \(group) does not exist")
            ])
        }
        return application
    }

    /// Prints every problem, errors first, one line each, then a summary; 1 when there is an error (or, with
    /// `strict`, a warning). With `remote`, every catalog object is looked at in the storage too.
    func checkConfig(configFile: String, strict: Bool, remote: Bool = false) -> Int32 {
        let runtime = GatewayRuntime(stats: GatewayStats(), logger: logger, logControl: logControl)
        do throws(ConfigProblems) {
            let application = try load(configFile, runtime: runtime)
            let catalog = application.existing(LoadCapabilities.catalogKey)
            let missing = remote ? catalog.map { remoteProblems(configFile, catalog: $0) } ?? [] : []
            guard missing.isEmpty else { throw ConfigProblems(missing + application.warnings) as ConfigProblems }
            for warning in application.warnings { print(warning.line) }
            var routes = "\(application.router.routes.count) routes, listening on \(application.server.listen)"
            if remote {
                let objects =
                    catalog?.products.filter { $0.content?.relativePath == nil && $0.content != nil }.count ?? 0
                routes += ", \(objects) storage object" + (objects == 1 ? "" : "s") + " found"
            }
            guard strict, !application.warnings.isEmpty else {
                print("\(configFile): OK (\(routes)" + Self.count(application.warnings.count, "warning") + ")")
                return 0
            }
            print(
                "\(configFile): " + Self.count(application.warnings.count, "warning", alone: true)
                    + ", fatal with --strict")
            return 1
        } catch {
            for problem in error.problems { print(problem.line) }
            let warnings = error.problems.count - error.errors.count
            print(
                "\(configFile): " + Self.count(error.errors.count, "error", alone: true)
                    + Self.count(warnings, "warning"))
            return 1
        }
    }

    /// The delivery of a CGI gateway, which no nginx follows: it streams local files itself (`x-accel`), and
    /// redirects to a presigned URL where nginx would have fetched it (`s3-proxy`); the other modes as configured.
    private func cgiDelivery(_ configFile: String) -> String {
        var configured = environment["STOREGATE_CONTENT_DELIVERY"]
        if configured == nil,
            case .scalar(let text)? = (try? ConfigValue.read(file: configFile, describedAs: ""))?["content"]?[
                "delivery"]
        {
            configured = text
        }
        switch configured ?? "x-accel" {
        case "x-accel": return "stream"
        case "s3-proxy": return "s3-presigned"
        case let other: return other
        }
    }

    /// `, 2 warnings` (or `2 warnings` when `alone`); nothing for none unless `alone`.
    private static func count(_ number: Int, _ noun: String, alone: Bool = false) -> String {
        guard number > 0 || alone else { return "" }
        return (alone ? "" : ", ") + "\(number) \(noun)" + (number == 1 ? "" : "s")
    }

    private func serveCGI(_ request: CGIRequest) -> Int32 {
        guard let configFile = environment["STOREGATE_CONFIG"] else {
            logger.error("CGI mode needs STOREGATE_CONFIG, the path of the config file")
            CGIRunner.write(ErrorRenderingMiddleware.response(for: .internalError), to: request)
            return 0
        }
        do {
            // No nginx in front follows X-Accel-Redirect here: a CGI gateway streams downloads itself.
            let runtime = GatewayRuntime(stats: GatewayStats(), logger: logger, logControl: logControl)
            let application = try load(
                configFile, runtime: runtime, overrides: ["STOREGATE_CONTENT_DELIVERY": cgiDelivery(configFile)])
            logControl.level = application.log.level
            CGIRunner.serve(request, with: application)
        } catch {
            for problem in error.problems { logger.error("config problem: \(problem.line)") }
            CGIRunner.write(ErrorRenderingMiddleware.response(for: .internalError), to: request)
        }
        return 0
    }
}
