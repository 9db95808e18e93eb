import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Two gateways behind one nginx upstream on one PostgreSQL ledger (a private server, so the test can
    /// restart it).
    @Suite struct SharedLedger {
        /// A receipt of one issue and `consumables` coin purchases, all with ids no other receipt has.
        static func receipt(_ number: Int, consumables: Int, on gateway: VerifyDeployment) throws -> String {
            let id = { (index: Int) in "7\(String(format: "%05d", number))\(String(format: "%03d", index))" }
            return try gateway.receipt(
                transactions: [Receipt.transaction(SampleContent.issueId, id(0))]
                    + (1...consumables).map { Receipt.transaction(SampleContent.coinsId, id($0)) })
        }

        @Test func twoGatewaysRestoringTheSameReceiptsAtOnceMakeOneSetOfRows() throws {
            let postgres = try PrivatePostgres()
            defer { postgres.destroy() }
            let gateway = try VerifyDeployment(apple: ["cache_ttl_s": "0"], gateways: 2, ledgerURL: postgres.url)
            defer { gateway.stop() }
            let receipts = try (0..<8).map { try Self.receipt($0, consumables: 39, on: gateway) }
            // Every thread restores the receipts in the same order, so the same receipt arrives at both
            // gateways at the same moment.
            let answers = concurrently(12) { _ in receipts.map { (receipt: $0, answer: try? gateway.restore($0)) } }
                .flatMap { $0 }
            #expect(answers.allSatisfy { $0.answer?.status == 200 })
            for receipt in receipts {
                let mine = answers.filter { $0.receipt == receipt }.compactMap(\.answer)
                let recorded = mine.compactMap { $0.json["recorded"] as? Int }
                let known = mine.compactMap { $0.json["known"] as? Int }
                #expect(recorded.reduce(0, +) == 40, "\(receipt): recorded \(recorded)")
                #expect(zip(recorded, known).allSatisfy { $0 + $1 == 40 }, "\(recorded) \(known)")
            }
            #expect(try gateway.ledgerCounts() == .init(purchases: 8 * 40, transactions: 8 * 40))
            let served = gateway.deployment.requestsByGateway()
            #expect(served.count == 2 && served.values.allSatisfy { $0 >= 24 }, "\(served)")

            // A token minted by one gateway opens the download on either: they share `tokens.secret`.
            let token = try #require(answers[0].answer?.downloadToken(for: SampleContent.issueId))
            let downloads = try (0..<4).map { _ in try gateway.download(SampleContent.issueId, token: token) }
            #expect(downloads.map(\.status) == [200, 200, 200, 200])
            #expect(downloads.allSatisfy { $0.body == SampleContent.issueBytes })
            let servedDownloads = gateway.deployment.requestsByGateway().merging(served) { $0 - $1 }
            #expect(servedDownloads.values.allSatisfy { $0 >= 1 }, "\(servedDownloads)")
        }

        @Test func aPostgreSQLRestartUnderLoadFailsFastRecoversAndLosesNothingAcknowledged() throws {
            let postgres = try PrivatePostgres()
            defer { postgres.destroy() }
            let gateway = try VerifyDeployment(apple: ["cache_ttl_s": "0"], gateways: 2, ledgerURL: postgres.url)
            defer { gateway.stop() }
            let clock = ContinuousClock()
            let started = clock.now
            let restartEnded = LockedBox<ContinuousClock.Instant?>(nil)
            let next = LockedBox(0)
            let outcomes = LockedBox([Outcome]())
            let restart = Thread {
                // Down once the load is answered, up again once requests have been refused while it was down.
                _ = ManagedProcess.poll(for: .seconds(20)) { outcomes.value.count >= 20 }
                do {
                    try postgres.stop()
                    _ = ManagedProcess.poll(for: .seconds(20)) {
                        outcomes.value.count { $0.answer?.status != 200 } >= 8
                    }
                    try postgres.start()
                } catch {
                    Issue.record("the restart failed: \(error)")
                }
                restartEnded.mutate { $0 = clock.now }
            }
            restart.start()
            _ = concurrently(8) { _ in
                // Load until two seconds after the restart, bounded by a deadline.
                while clock.now - started < .seconds(60),
                    restartEnded.value.map({ clock.now - $0 < .seconds(2) }) ?? true
                {
                    var number = 0
                    next.mutate {
                        number = $0
                        $0 += 1
                    }
                    guard let receipt = try? Self.receipt(number, consumables: 4, on: gateway) else { continue }
                    usleep(25_000)  // a steady load, not a spin while PostgreSQL is down
                    let sent = clock.now
                    let answer = try? gateway.restore(receipt)
                    outcomes.mutate {
                        $0.append(Outcome(receipt: receipt, sent: sent, took: clock.now - sent, answer: answer))
                    }
                }
            }
            let ended = try #require(restartEnded.value)
            let all = outcomes.value
            let refused = all.filter { $0.answer?.status != 200 }
            #expect(!refused.isEmpty, "no request saw the restart")
            for outcome in refused {
                #expect(outcome.answer?.status == 503, "\(outcome.answer?.text ?? "no answer")")
                #expect(outcome.answer?.errorCode == "ledger_unavailable")
                #expect(outcome.answer?.header("Retry-After") != nil)
                #expect(outcome.took < .seconds(1), "a refusal took \(outcome.took)")
            }
            // Recovered without restarting a gateway: everything sent a moment after the restart succeeded.
            let afterwards = all.filter { $0.sent > ended + .milliseconds(500) }
            #expect(afterwards.count >= 20)
            #expect(afterwards.allSatisfy { $0.answer?.status == 200 })
            #expect(gateway.deployment.gateways.allSatisfy { $0.process.isRunning })

            // Nothing acknowledged was lost: each acknowledged receipt is fully known; a refused one retries.
            let problems = concurrently(8) { thread in
                stride(from: thread, to: all.count, by: 8).compactMap { index -> String? in
                    let outcome = all[index]
                    guard let again = try? gateway.restore(outcome.receipt), again.status == 200 else {
                        return "\(outcome.receipt): the retry failed"
                    }
                    let recorded = again.json["recorded"] as? Int ?? -1
                    let known = again.json["known"] as? Int ?? -1
                    if outcome.answer?.status == 200 {
                        return known == 5 ? nil : "\(outcome.receipt): acknowledged rows lost: \(again.text)"
                    }
                    return recorded + known == 5 ? nil : "\(outcome.receipt): \(again.text)"
                }
            }.flatMap { $0 }
            #expect(problems.isEmpty, "\(problems.prefix(5))")
            #expect(try gateway.ledgerCounts() == .init(purchases: all.count * 5, transactions: all.count * 5))
        }

        struct Outcome: Sendable {
            let receipt: String
            let sent: ContinuousClock.Instant
            let took: Duration
            let answer: HTTPResponse?
        }
    }
}
