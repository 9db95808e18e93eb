import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Faults of the process and its neighbours while clients keep coming: kill -9, SIGHUP storms, nginx
    /// reloads. Every acknowledged verify is counted against the ledger afterwards.
    @Suite struct LoadFaults {
        /// Eight client threads verifying `receipts` in turn (and reading the catalog between them) until
        /// all are sent or `stop` is set, pausing 50 ms after a failure. Keeps each receipt's answer status
        /// (-1: no answer).
        final class Load: @unchecked Sendable {
            let statuses = LockedBox<[String: Int]>([:])
            let catalogStatuses = LockedBox<[Int]>([])
            let stop = LockedBox(false)
            private let thread: Thread

            init(_ gateway: VerifyDeployment, receipts: [String]) {
                let next = LockedBox(0)
                let statuses = statuses
                let catalogStatuses = catalogStatuses
                let stop = stop
                thread = Thread {
                    _ = concurrently(8) { _ in
                        while !stop.value {
                            var index = 0
                            next.mutate {
                                index = $0
                                $0 += 1
                            }
                            guard index < receipts.count else { return }
                            let status = (try? gateway.verify(receipts[index], timeout: .seconds(10)))?.status ?? -1
                            statuses.mutate { $0[receipts[index]] = status }
                            if status != 200 { usleep(50_000) }  // as a client backs off
                            let catalog = (try? gateway.deployment.request("/v1/catalog"))?.status ?? -1
                            catalogStatuses.mutate { $0.append(catalog) }
                        }
                    }
                }
                thread.start()
            }

            var answered: Int { statuses.value.count }
            var acknowledged: Int { statuses.value.values.filter { $0 == 200 }.count }

            func finish() -> Bool { ManagedProcess.poll(for: .seconds(60)) { thread.isFinished } }
        }

        static func receipts(_ gateway: VerifyDeployment, _ count: Int, label: String) throws -> [String] {
            let names = (0..<count).map { "\(label)-\($0)" }
            try gateway.appStore.add(
                names.enumerated().map { index, name in
                    [
                        "receipt": name, "bundle_id": SampleContent.bundleId,
                        "transactions": Faults.threePurchases(8000 + index),
                    ]
                })
            return names
        }

        @Test func killNineUnderLoadIs502UntilRestartedAndLosesNothingAcknowledged() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipts = try Self.receipts(gateway, 1200, label: "kill-under-load")
            let load = Load(gateway, receipts: receipts)
            #expect(ManagedProcess.poll(for: .seconds(30)) { load.answered >= 150 })
            gateway.deployment.gateway.signal(SIGKILL)
            _ = gateway.deployment.gateway.waitForExit(within: .seconds(5))
            let down = load.answered
            #expect(ManagedProcess.poll(for: .seconds(10)) { load.answered >= down + 40 }, "clients kept going")
            try gateway.deployment.restartGateway()
            let beforeRestart = load.acknowledged
            #expect(ManagedProcess.poll(for: .seconds(30)) { load.acknowledged >= beforeRestart + 100 })
            load.stop.mutate { $0 = true }
            #expect(load.finish())

            let statuses = load.statuses.value
            let seen = Set(statuses.values)
            #expect(seen.isSubset(of: [200, 502]), "statuses seen: \(seen)")
            #expect(seen.contains(502), "nginx answers 502 while the gateway is down")
            #expect(Set(load.catalogStatuses.value).isSubset(of: [200, 502]))
            #expect(try gateway.deployment.request("/v1/catalog").status == 200, "the restarted gateway serves")

            // Acknowledged receipts are whole in the ledger; the others may be whole or absent, never half.
            let acknowledged = statuses.filter { $0.value == 200 }.map(\.key)
            let transactions = try gateway.ledgerCounts().transactions
            #expect(transactions % 3 == 0)
            #expect(transactions >= 3 * acknowledged.count && transactions <= 3 * statuses.count)
            for receipt in acknowledged.prefix(100) {
                let again = try gateway.restore(receipt)
                #expect(again.json["known"] as? Int == 3 && again.json["recorded"] as? Int == 0, "\(again.text)")
            }
        }

        /// Ten reloads of storegate one after another (each SIGHUP once the last reload is logged: signals sent
        /// faster merge into fewer reloads, as many as the machine's speed allows), or three reloads of nginx
        /// 150 ms apart.
        @Test(arguments: ["storegate", "nginx"])
        func reloadsUnderLoadDropNothing(_ reloaded: String) throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipts = try Self.receipts(gateway, 1000, label: "reload-\(reloaded)")
            let process = try #require(reloaded == "nginx" ? gateway.deployment.nginx : gateway.deployment.gateway)
            let load = Load(gateway, receipts: receipts)
            let reloads = { gateway.deployment.gateway.log.components(separatedBy: "msg=reloaded").count - 1 }
            for number in 1...(reloaded == "nginx" ? 3 : 10) {
                if reloaded == "nginx" { usleep(150_000) }
                process.signal(SIGHUP)
                if reloaded == "storegate" {
                    #expect(ManagedProcess.poll(for: .seconds(5)) { reloads() >= number }, "reload \(number)")
                }
            }
            #expect(load.answered < receipts.count, "the load should outlast the reloads")
            #expect(load.finish())
            let statuses = load.statuses.value
            #expect(statuses.count == receipts.count)
            #expect(statuses.values.allSatisfy { $0 == 200 }, "statuses seen: \(Set(statuses.values))")
            #expect(load.catalogStatuses.value.allSatisfy { $0 == 200 })
            #expect(try gateway.ledgerCounts().transactions == 3 * receipts.count)
            #expect(gateway.deployment.gateway.waitForExit(within: .zero) == nil, "the same gateway serves on")
            if reloaded == "storegate" { #expect(reloads() == 10) }
        }
    }
}
