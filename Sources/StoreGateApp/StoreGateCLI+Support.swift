import Foundation
import GatewayHandlerAPI
import GatewayServer
import PurchaseVerification

extension StoreGateCLI {
    /// `storegate notifications backfill`: the store's notifications of a period recorded with the config's
    /// verification service and ledger, as the notification route records them. Exit 1 when the store or
    /// the ledger failed (run it again) or a notification was refused.
    func backfillNotifications(configFile: String, from start: Date, to end: Date) -> Int32 {
        let command = "notifications backfill"
        guard let (service, context) = verificationService(configFile, command: command) else { return 1 }
        do {
            let result = try service.backfiller.backfillNotifications(from: start, to: end, context: context)
            let notifications = result.listed - result.voided
            print(
                "\(notifications) notifications sent from \(start.formatted(.iso8601)) to \(end.formatted(.iso8601)): "
                    + "\(result.recorded - result.voidedEnded) recorded, \(result.duplicates - (result.voided - result.voidedEnded)) "
                    + "already recorded, \(result.refused) refused")
            if result.voided > 0 || notifications == 0 {
                print(
                    "\(result.voided) voided purchases listed: \(result.voidedEnded) ended, "
                        + "\(result.voided - result.voidedEnded) ended before or never sold here")
            }
            return result.refused == 0 ? 0 : 1
        } catch {
            return failed(command, "\(error)")
        }
    }

    /// `storegate lookup`: the ledger's story of the purchases `query` names, and the store's current view.
    func lookUp(_ query: SupportQuery, configFile: String, json: Bool) -> Int32 {
        guard let (service, context) = verificationService(configFile, command: "lookup") else { return 1 }
        do {
            let lookup = try service.lookup.lookUp(query, context: context)
            print(json ? LookupReport.json(lookup) : LookupReport.text(lookup))
            return 0
        } catch {
            return failed("lookup", "\(error)")
        }
    }

    /// The verification service of `configFile`'s load and a context for one command's work, or nil after
    /// saying why there is none.
    func verificationService(_ configFile: String, command: String) -> (VerificationServices, RequestContext)? {
        guard let (application, runtime) = loadForCommand(configFile) else { return nil }
        guard let service = application.existing(LoadCapabilities.servicesKey) else {
            _ = failed(command, "the config mounts no route that verifies purchases (mount notifications or verify)")
            return nil
        }
        let context = RequestContext(
            requestId: runtime.requestIds.next(), deadline: .now + .seconds(3_600), logger: logger)
        return (service, context)
    }

    /// `configFile` loaded for a command (its log level applied), or nil after printing its problems.
    func loadForCommand(_ configFile: String) -> (GatewayApplication, GatewayRuntime)? {
        let runtime = GatewayRuntime(stats: GatewayStats(), logger: logger, logControl: logControl)
        do {
            let application = try load(configFile, runtime: runtime)
            logControl.level = application.log.level
            return (application, runtime)
        } catch {
            for problem in error.problems { print(problem.line) }
            return nil
        }
    }

    func failed(_ command: String, _ message: String) -> Int32 {
        FileHandle.standardError.write(Data("storegate \(command): \(message)\n".utf8))
        return 1
    }
}
