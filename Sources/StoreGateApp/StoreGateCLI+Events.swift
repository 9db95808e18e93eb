import Foundation
import GatewayCore
import GatewayServer
import PurchaseEvents
import PurchaseLedger

extension StoreGateCLI {
    /// `storegate events list`: the ledger's events since `since`, as endpoints get them.
    func listEvents(configFile: String, since: Date) -> Int32 {
        guard let (application, _) = loadForCommand(configFile) else { return 1 }
        guard let ledger = application.existing(LoadCapabilities.ledgerKey) else {
            return failed("events list", "the config mounts no route that uses the ledger")
        }
        do throws(LedgerError) {
            var after: Int64 = 0
            while true {
                let page = try ledger.events(since: since, after: after, limit: 500)
                guard let last = page.last else { break }
                for event in page { print(String(decoding: EventPayload(event).body, as: UTF8.self)) }
                after = last.sequence
            }
            return 0
        } catch {
            return failed("events list", "the ledger cannot be read: \(error)")
        }
    }

    /// `storegate events replay`: makes the deliveries of the events since `since` pending again.
    func replayEvents(configFile: String, since: Date, endpoint: String?) -> Int32 {
        guard let (application, _) = loadForCommand(configFile) else { return 1 }
        guard let events = application.existing(LoadCapabilities.eventsKey) ?? nil else {
            return failed("events replay", "the config names no events endpoint (events.endpoints)")
        }
        let names = events.settings.endpoints.map(\.name)
        if let endpoint, !names.contains(endpoint) {
            return failed(
                "events replay",
                "no endpoint is named \(endpoint); the config names \(names.joined(separator: ", "))")
        }
        do throws(LedgerError) {
            let pending = try events.replay(since: since, endpoint: endpoint)
            print("\(pending) deliveries are pending again; the serving gateways send them")
            return 0
        } catch {
            return failed("events replay", "the ledger cannot be written: \(error)")
        }
    }
}
