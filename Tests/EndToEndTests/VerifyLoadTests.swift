import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Verification under concurrency: slow Apple calls hold only their own workers, identical receipts share
    /// one call, and a killed gateway loses nothing it acknowledged.
    @Suite struct VerifyLoad {
        @Test func sixtyFourSlowVerifiesDoNotHoldUpTheCatalog() throws {
            let gateway = try VerifyDeployment(server: ["workers": "96"])
            defer { gateway.stop() }
            let names = try (0..<64).map { index in
                try gateway.receipt(
                    transactions: [Receipt.transaction(SampleContent.issueId, "7\(index)")],
                    extra: ["steps": [["delay_ms": 3000]]]
                )
            }
            let firstVerifyDone = LockedBox<ContinuousClock.Instant?>(nil)
            let catalogTimes = LockedBox<[ContinuousClock.Instant]>([])
            let started = ContinuousClock.now
            let catalog = Thread {
                // Once the verifies hold workers waiting on Apple.
                _ = ManagedProcess.poll(for: .seconds(10)) {
                    (try? gateway.appStore.calls(names[0]))?["Production"] == 1
                }
                for _ in 0..<20 {
                    if (try? gateway.deployment.request("/v1/catalog"))?.status == 200 {
                        catalogTimes.mutate { $0.append(.now) }
                    }
                }
            }
            catalog.start()
            let statuses = concurrently(64) { index in
                let status = (try? gateway.verify(names[index]))?.status ?? -1
                firstVerifyDone.mutate { $0 = $0 ?? .now }
                return status
            }
            let elapsed = started.duration(to: .now)
            #expect(statuses.allSatisfy { $0 == 200 }, "\(statuses)")
            // Concurrent, not queued: one round of 3 s, far from 64 × 3 s.
            #expect(elapsed < .seconds(12), "\(elapsed)")
            let done = try #require(firstVerifyDone.value)
            #expect(catalogTimes.value.count == 20)
            #expect(catalogTimes.value.allSatisfy { $0 < done }, "catalog answers waited for Apple")
            #expect(try gateway.ledgerCounts() == .init(purchases: 64, transactions: 64))
        }

        @Test func concurrentIdenticalReceiptsShareOneAppleCall() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let receipt = try gateway.receipt(
                transactions: [Receipt.transaction(SampleContent.issueId, "800001")],
                extra: ["steps": [["delay_ms": 1000]]]
            )
            let answers = concurrently(12) { _ in (try? gateway.verify(receipt))?.status ?? -1 }
            #expect(answers == Array(repeating: 200, count: 12))
            #expect(try gateway.appStore.calls(receipt)["Production"] == 1)
            #expect(try gateway.ledgerCounts() == .init(purchases: 1, transactions: 1))
            // Still cached a moment later.
            #expect(try gateway.verify(receipt).status == 200)
            #expect(try gateway.appStore.calls(receipt)["Production"] == 1)
        }

        @Test func theCacheExpiresAfterItsTTL() throws {
            let gateway = try VerifyDeployment(apple: ["cache_ttl_s": "1"])
            defer { gateway.stop() }
            let receipt = try gateway.receipt(transactions: [Receipt.transaction(SampleContent.issueId, "800002")])
            #expect(try gateway.verify(receipt).status == 200)
            #expect(try gateway.verify(receipt).status == 200)
            #expect(try gateway.appStore.calls(receipt)["Production"] == 1)
            // Verified again and again: from the cache until the verdict is a second old, then by Apple.
            let cachedAt = ContinuousClock.now
            var askedAgainAt: ContinuousClock.Instant?
            _ = ManagedProcess.poll(for: .seconds(10)) {
                _ = try? gateway.verify(receipt)
                if (try? gateway.appStore.calls(receipt)["Production"]) == 2 { askedAgainAt = .now }
                return askedAgainAt != nil
            }
            let after = try #require(askedAgainAt.map { cachedAt.duration(to: $0) })
            #expect(after >= .milliseconds(800), "the verdict left the cache after \(after)")
            #expect(try gateway.appStore.calls(receipt)["Production"] == 2)
        }

        @Test func reloadsKeepVerifyingAndRecording() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let names = try (0..<30).map { index in
                try gateway.receipt(transactions: [Receipt.transaction(SampleContent.coinsId, "13\(index)")])
            }
            let statuses = LockedBox<[Int]>([])
            let load = Thread {
                _ = concurrently(3) { part in
                    for index in stride(from: part, to: names.count, by: 3) {
                        let status = (try? gateway.verify(names[index]))?.status ?? -1
                        statuses.mutate { $0.append(status) }
                        usleep(20_000)
                    }
                }
            }
            load.start()
            // Each reload once the load is running and the previous reload is done.
            #expect(ManagedProcess.poll(for: .seconds(10)) { !statuses.value.isEmpty })
            for reload in 1...3 {
                gateway.deployment.gateway.signal(SIGHUP)
                #expect(
                    ManagedProcess.poll(for: .seconds(10)) {
                        gateway.deployment.gateway.log.components(separatedBy: "msg=reloaded").count > reload
                    })
            }
            #expect(ManagedProcess.poll(for: .seconds(20)) { statuses.value.count == names.count })
            #expect(statuses.value.allSatisfy { $0 == 200 }, "\(statuses.value)")
            #expect(try gateway.ledgerCounts() == .init(purchases: 30, transactions: 30))
        }

        @Test func killNineLosesNothingThatWasAcknowledged() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let names = (0..<2000).map { "kill-nine-\($0)" }
            try gateway.appStore.add(
                names.enumerated().map { index, name in
                    [
                        "receipt": name, "bundle_id": SampleContent.bundleId,
                        "transactions": [Receipt.transaction(SampleContent.coinsId, "9\(index)")],
                    ]
                })
            let next = LockedBox(0)
            let acknowledged = LockedBox<[String]>([])
            // The kill lands once 200 verifies were acknowledged, with eight more in flight.
            let killer = Thread {
                _ = ManagedProcess.poll(for: .seconds(30)) { acknowledged.value.count >= 200 }
                gateway.deployment.gateway.signal(SIGKILL)
            }
            killer.start()
            _ = concurrently(8) { _ in
                while true {
                    var index = 0
                    next.mutate {
                        index = $0; $0 += 1
                    }
                    guard index < names.count else { return }
                    if let answer = try? gateway.verify(names[index], timeout: .seconds(5)), answer.status == 200 {
                        acknowledged.mutate { $0.append("9\(index)") }
                    }
                }
            }
            #expect(gateway.deployment.gateway.waitForExit(within: .seconds(5)) != nil)
            let count = acknowledged.value.count
            #expect(count > 0 && count < names.count, "the kill should land mid-load: \(count) acknowledged")
            let ledger = try SQLiteLedger(path: gateway.ledgerPath)
            for transactionId in acknowledged.value {
                #expect(
                    try ledger.purchases(environment: "Production", originalTransactionId: transactionId).count == 1)
            }
            #expect(try ledger.counts().purchases >= count)
        }
    }
}
