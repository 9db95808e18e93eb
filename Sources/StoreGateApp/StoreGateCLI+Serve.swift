import FastCGIFront
import Foundation
import GatewayCore
import GatewayServer
import GatewayText
import Logging
import PurchaseEvents
import PurchaseLedger
import PurchaseVerification

extension StoreGateCLI {
    /// Signals the serving process owns; blocked in every thread and taken by `sigwait` on the main one,
    /// so none ever interrupts a worker in the middle of a request.
    private static let ownedSignals = [SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGUSR2, __libc_current_sigrtmin() + 2]

    func serve(configFile: String) -> Int32 {
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in Self.ownedSignals { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        // A file size limit (or quota) reached by the ledger is a write error answered 503, not death.
        signal(SIGXFSZ, SIG_IGN)

        let runtime = GatewayRuntime(stats: GatewayStats(), logger: logger, logControl: logControl)
        let server: FastCGIServer
        do {
            let application = try load(configFile, runtime: runtime)
            apply(application.log)
            warn(about: application)
            let settings = application.server
            let socket = try ListeningSocket.open(
                settings.listen,
                mode: settings.socketMode,
                group: settings.socketGroup,
                backlog: settings.backlog
            )
            server = FastCGIServer(socket: socket, application: application, runtime: runtime)
            try server.start()
            startBackgroundWork(of: application, runtime: runtime)
        } catch let problems as ConfigProblems {
            for problem in problems.problems { logger.critical("config problem: \(problem.line)") }
            return 1
        } catch {
            logger.critical("cannot start: \(error)")
            return 1
        }

        while true {
            var received: Int32 = 0
            guard sigwait(&signals, &received) == 0 else { continue }
            switch received {
            case SIGHUP:
                reload(server, configFile: configFile, runtime: runtime)
            case SIGTERM, SIGINT:
                logger.info("stopping: finishing requests in flight", metadata: ["signal": "\(received)"])
                stopBackgroundWork(of: server.application)
                let grace = server.application.server.shutdownGrace
                if server.stop(grace: grace) {
                    logger.info("stopped")
                } else {
                    logger.warning("stopped with requests still running after server.shutdown_grace_s")
                }
                logControl.output.gather(every: nil)
                return 0
            default:
                continue
            }
        }
    }

    private func reload(_ server: FastCGIServer, configFile: String, runtime: GatewayRuntime) {
        do {
            let application = try load(configFile, runtime: runtime)
            stopBackgroundWork(of: server.application)
            server.reload(application)
            startBackgroundWork(of: application, runtime: runtime)
            apply(application.log)
            warn(about: application)
            logger.info("reloaded", metadata: ["config": "\(configFile)"])
        } catch {
            for problem in error.problems { logger.error("reload refused: \(problem.line)") }
            logger.error("reload refused; still serving the previous config")
        }
    }

    /// Starts the work `application`'s verification services do beside requests, if a route built them, and the
    /// delivery of events to the configured endpoints.
    private func startBackgroundWork(of application: GatewayApplication, runtime: GatewayRuntime) {
        application.existing(LoadCapabilities.servicesKey)?.startBackgroundWork(
            logger: runtime.logger, metricsFactory: runtime.metrics.factory,
            nextRequestId: { [requestIds = runtime.requestIds] in requestIds.next() })
        if let events = application.existing(LoadCapabilities.eventsKey) ?? nil {
            events.start(logger: runtime.logger, metricsFactory: runtime.metrics.factory)
        } else if let ledger = application.existing(LoadCapabilities.ledgerKey) {
            // A config without endpoints (any more): the ledger writes no deliveries nobody would send.
            do {
                try ledger.configureEventEndpoints([], at: Date())
            } catch {
                logger.warning("events: the ledger's endpoints could not be cleared", metadata: ["reason": "\(error)"])
            }
        }
    }

    private func stopBackgroundWork(of application: GatewayApplication) {
        application.existing(LoadCapabilities.servicesKey)?.stopBackgroundWork()
        application.existing(LoadCapabilities.eventsKey)??.stop()
    }

    /// A serving process gathers its request lines (`log.flush_ms`); the level applies to every logger.
    private func apply(_ settings: LogSettings) {
        logControl.level = settings.level
        logControl.output.gather(every: settings.flushInterval)
    }

    private func warn(about application: GatewayApplication) {
        for warning in application.warnings { logger.warning("config: \(warning)") }
    }
}
