import Foundation
import GatewayCore
import PurchaseVerification

extension StoreGateCLI {
    /// `storegate notifications backfill`: the store's notifications of a period recorded with the config's
    /// verification service and ledger, as the notification route records them. Exit 1 when the store or
    /// the ledger failed (run it again) or a notification was refused.
    func backfillNotifications(configFile: String, from start: Date, to end: Date) -> Int32 {
        let runtime = GatewayRuntime(stats: GatewayStats(), logger: logger, logControl: logControl)
        let application: GatewayApplication
        do {
            application = try load(configFile, runtime: runtime)
        } catch {
            for problem in error.problems { print(problem) }
            return 1
        }
        logControl.level = application.log.level
        guard let service = application.verificationService else {
            return failed("the config mounts no route that verifies purchases (mount notifications)")
        }
        let context = RequestContext(
            requestId: runtime.requestIds.next(), deadline: .now + .seconds(3_600), logger: logger)
        do {
            let result = try service.backfillNotifications(from: start, to: end, context: context)
            print(
                "\(result.listed) notifications sent from \(start.formatted(.iso8601)) to \(end.formatted(.iso8601)): "
                    + "\(result.recorded) recorded, \(result.duplicates) already recorded, \(result.refused) refused")
            return result.refused == 0 ? 0 : 1
        } catch {
            return failed("\(error)")
        }
    }

    private func failed(_ message: String) -> Int32 {
        FileHandle.standardError.write(Data("storegate notifications backfill: \(message)\n".utf8))
        return 1
    }
}
