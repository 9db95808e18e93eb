import FastCGIFront
import Foundation
import GatewayCore
import Logging

/// The `storegate` command line: `serve`, `check-config`, and plain CGI when run by a web server.
public struct StoreGateCLI: Sendable {
    let registry: HandlerRegistry
    let environment: [String: String]
    let logger: Logger
    /// The level every log handler of this process reads; a loaded config's `log.level` sets it.
    let logControl: LogControl

    /// A command line that builds gateways from the modules of `registry`.
    public init(registry: HandlerRegistry, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.registry = registry
        self.environment = environment
        let logControl = LogControl()
        LoggingSystem.bootstrap { _ in LineLogHandler(control: logControl) }
        self.logControl = logControl
        self.logger = Logger(label: "storegate")
    }

    /// Runs the command `arguments` (without the program name) and returns the exit status.
    public func run(_ arguments: [String]) -> Int32 {
        if arguments.isEmpty, environment["GATEWAY_INTERFACE"] != nil { return serveCGI() }
        switch (arguments.first, option("--config", in: arguments)) {
        case ("serve", let config?): return serve(configFile: config)
        case ("check-config", let config?): return checkConfig(configFile: config)
        case ("ledger", _): return ledger(arguments)
        case ("--version", _), ("version", _):
            print("storegate \(StoreGateVersion.current)")
            return 0
        case ("--help", _), ("help", _), ("-h", _):
            print(Self.usage)
            return 0
        default:
            FileHandle.standardError.write(Data((Self.usage + "\n").utf8))
            return 2
        }
    }

    static let usage = """
        usage: storegate serve --config FILE         FastCGI server (server.listen, or the socket on fd 0)
               storegate check-config --config FILE  report every problem in config, catalog and content
               storegate ledger copy --from URL --to URL   copy every ledger row (sqlite:FILE, postgres://...)
               storegate --version
        With no arguments and GATEWAY_INTERFACE set, answers one CGI request (config from STOREGATE_CONFIG).
        """

    func option(_ name: String, in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    func load(_ configFile: String, runtime: GatewayRuntime, overrides: [String: String] = [:]) throws(ConfigProblems)
        -> GatewayApplication
    {
        let application = try GatewayApplication.load(
            configFile: configFile,
            registry: registry,
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

    private func checkConfig(configFile: String) -> Int32 {
        let runtime = GatewayRuntime(stats: GatewayStats(), logger: logger, logControl: logControl)
        do {
            let application = try load(configFile, runtime: runtime)
            for key in application.unusedKeys { print("warning: \(key): not used by this build or its enabled routes") }
            print(
                "\(configFile): OK (\(application.router.routes.count) routes, listening on \(application.server.listen))"
            )
            return 0
        } catch {
            for problem in error.problems { print(problem) }
            return 1
        }
    }

    private func serveCGI() -> Int32 {
        guard let configFile = environment["STOREGATE_CONFIG"] else {
            logger.error("CGI mode needs STOREGATE_CONFIG, the path of the config file")
            CGIRunner.write(ErrorRenderingMiddleware.response(for: .internalError), method: CGIRunner.requestMethod)
            return 0
        }
        do {
            // No nginx in front follows X-Accel-Redirect here: a CGI gateway streams downloads itself.
            let runtime = GatewayRuntime(stats: GatewayStats(), logger: logger, logControl: logControl)
            let application = try load(
                configFile, runtime: runtime, overrides: ["STOREGATE_CONTENT_DELIVERY": "stream"])
            logControl.level = application.log.level
            CGIRunner.serve(with: application)
        } catch {
            for problem in error.problems { logger.error("config problem: \(problem)") }
            CGIRunner.write(ErrorRenderingMiddleware.response(for: .internalError), method: CGIRunner.requestMethod)
        }
        return 0
    }
}
