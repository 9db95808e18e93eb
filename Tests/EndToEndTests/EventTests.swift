import Foundation
import Testing

extension EndToEnd {
    /// Events to the app's own backend through nginx, received by a real HTTP server that checks each signature
    /// with the documented example's code: every change once, in order per purchase, kept while the receiver is
    /// down, re-sent after a crash only where not acknowledged, once across gateways sharing PostgreSQL.
    @Suite struct Events {
        static func gateway(
            _ receiver: EventReceiver, gateways: Int = 1, ledgerURL: String? = nil, events: String = ""
        ) throws -> VerifyDeployment {
            try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, delivery: "stream", gateways: gateways,
                ledgerURL: ledgerURL,
                extra: """
                    accounts:
                      asserted_by: [web-server, signed]
                      secret: \(Accounts.secret)
                      restore_policy: transfer
                    """ + "\n" + receiver.config(extra: events))
        }

        /// A purchase of the issue verified for `account`: its original transaction id.
        @discardableResult
        static func buy(as account: String, on gateway: VerifyDeployment) throws -> (String, HTTPResponse) {
            let original = Accounts.id()
            let verified = try Accounts.post(
                "verify", [try SignedTransactions.signed(SampleContent.issueId, original)], as: account, to: gateway)
            #expect(verified.status == 200, "\(verified.text)")
            return (original, verified)
        }

        /// The event types `receiver` acknowledged for `original`, in the order they arrived.
        static func types(_ receiver: EventReceiver, _ original: String) -> [String] {
            receiver.acknowledged.filter { $0.original == original }.map(\.type)
        }

        @Test func aPurchaseItsDownloadATransferAndARefundEachArriveOnceSignedAndAReplaySendsThemAgain() throws {
            let receiver = try EventReceiver()
            defer { receiver.remove() }
            let gateway = try Self.gateway(receiver)
            defer { gateway.stop() }
            let (original, verified) = try Self.buy(as: "alice", on: gateway)
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            let issue = try SignedTransactions.signed(SampleContent.issueId, original)
            #expect(try Accounts.post("restore-sync", [issue], as: "bob", to: gateway).status == 200)
            let refund = try SignedTransactions.signed(SampleContent.issueId, original, revoked: true)
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)

            #expect(receiver.waitForAcknowledged(5), "\(receiver.attempts.map(\.type))")
            let got = receiver.acknowledged
            #expect(
                got.map(\.type) == [
                    "purchase.recorded", "account.binding_changed", "content.delivered", "account.binding_changed",
                    "purchase.revoked",
                ])
            #expect(receiver.attempts.count == 5, "each arrived once")
            #expect(Set(got.map(\.id)).count == 5)
            #expect(got.allSatisfy { $0.verified && $0.eventIdHeader == $0.id && $0.id.hasPrefix("evt_") })
            #expect(got.allSatisfy { $0.original == original && $0.event["store"] as? String == "app-store" })
            #expect(got.allSatisfy { $0.event["product_id"] as? String == SampleContent.issueId })
            #expect(got.allSatisfy { $0.event["environment"] as? String == "Sandbox" })
            let data = got.map { $0.event["data"] as? [String: Any] ?? [:] }
            #expect(got[1].event["account_id"] as? String == "alice")
            #expect(data[1]["change"] as? String == "bound")
            #expect(data[2]["content_sha256"] as? String == SampleContent.issueSHA256)
            #expect(got[3].event["account_id"] as? String == "bob")
            #expect(data[3]["change"] as? String == "transferred")
            #expect(data[3]["other_accounts"] as? String == "alice")
            #expect(got[4].event["account_id"] as? String == "bob")
            #expect(data[4]["source"] as? String == "notification")

            // Support sees each event on the purchase's timeline, with how its delivery went.
            let lookup = try SupportLookup.lookUp(gateway, ["--transaction-id", original])
            #expect(lookup.output.contains("purchase.revoked \(got[4].id): delivered to backend"), "\(lookup.output)")

            // Operators see the endpoint drained, and count what was delivered.
            var status: [String: Any] = [:]
            #expect(
                ManagedProcess.poll(for: .seconds(10)) {
                    status = (try? gateway.deployment.request("/v1/status").json) ?? [:]
                    let endpoints = status["events"] as? [[String: Any]]
                    return endpoints?.first?["pending"] as? Int == 0
                }, "\(status)")
            #expect((status["events"] as? [[String: Any]])?.first?["endpoint"] as? String == "backend")
            let metrics = try gateway.deployment.request("/v1/metrics").text
            #expect(
                metrics.contains(#"storegate_events_total{endpoint="backend",outcome="delivered"} 5"#), "\(metrics)")
            #expect(metrics.contains(#"storegate_events_pending{endpoint="backend"} 0"#), "\(metrics)")

            // A receiver that lost its data: the command line lists the events and sends them again, same ids.
            let setup = gateway.deployment.setup
            let config = gateway.deployment.configFile.path
            let listed = try CommandLine.run(
                ["events", "list", "--config", config, "--since", "1h"], binary: setup.binary,
                environment: setup.environment)
            #expect(listed.status == 0, "\(listed.errors)")
            let lines = listed.output.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
            #expect(lines.map { $0["id"] as? String ?? "" } == got.map(\.id))
            let replay = try CommandLine.run(
                ["events", "replay", "--config", config, "--since", "1h", "--endpoint", "backend"],
                binary: setup.binary, environment: setup.environment)
            #expect(replay.status == 0, "\(replay.errors)")
            #expect(replay.output.contains("5 deliveries are pending again"), "\(replay.output)")
            #expect(receiver.waitForAcknowledged(10))
            #expect(receiver.acknowledged.suffix(5).map(\.id) == got.map(\.id))
            let unknown = try CommandLine.run(
                ["events", "replay", "--config", config, "--since", "1h", "--endpoint", "nobody"],
                binary: setup.binary, environment: setup.environment)
            #expect(unknown.status == 1)
            #expect(unknown.errors.contains("no endpoint is named nobody; the config names backend"))
        }

        @Test func aSubscriptionTheStoreSaysExpiredArrivesAsExpiredAfterItsPurchase() throws {
            let receiver = try EventReceiver()
            defer { receiver.remove() }
            let gateway = try Self.gateway(receiver)
            defer { gateway.stop() }
            let original = Accounts.id()
            let monthly = try SignedTransactions.signed(
                SampleContent.monthlyId, original, type: "Auto-Renewable Subscription", expiresIn: -1)
            let expired = try Notifications.post("EXPIRED", transaction: monthly, to: gateway)
            #expect(expired.status == 200, "\(expired.text)")
            #expect(receiver.waitForAcknowledged(2), "\(receiver.attempts.map(\.type))")
            #expect(Self.types(receiver, original) == ["purchase.recorded", "purchase.expired"])
            let data = receiver.acknowledged.last?.event["data"] as? [String: Any]
            #expect(data?["notification_type"] as? String == "EXPIRED")
            #expect(receiver.acknowledged.last?.event["product_id"] as? String == SampleContent.monthlyId)
        }

        @Test func aReceiverDownForAWhileGetsEverythingInOrderOnceItIsBack() throws {
            let receiver = try EventReceiver()
            receiver.stop()
            defer { receiver.remove() }
            let gateway = try Self.gateway(receiver)
            defer { gateway.stop() }
            let originals = try (0..<3).map { _ in try Self.buy(as: "carol", on: gateway).0 }
            let refund = try SignedTransactions.signed(SampleContent.issueId, originals[0], revoked: true)
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)
            // Tried and refused while the receiver is down: kept, waiting.
            var metrics = ""
            #expect(
                ManagedProcess.poll(for: .seconds(20)) {
                    metrics = (try? gateway.deployment.request("/v1/metrics").text) ?? ""
                    return metrics.contains(#"storegate_events_pending{endpoint="backend"} 7"#)
                        && metrics.contains(#"storegate_events_total{endpoint="backend",outcome="failed"}"#)
                }, "\(metrics)")
            try receiver.start()
            #expect(receiver.waitForAcknowledged(7), "\(receiver.attempts.map(\.type))")
            #expect(
                Self.types(receiver, originals[0]) == [
                    "purchase.recorded", "account.binding_changed", "purchase.revoked",
                ])
            for original in originals.dropFirst() {
                #expect(Self.types(receiver, original) == ["purchase.recorded", "account.binding_changed"])
            }
            #expect(Set(receiver.acknowledged.map(\.id)).count == 7)
        }

        @Test func anEventNotTakenInTimeIsKeptCountedAndSentAgainByAReplay() throws {
            let receiver = try EventReceiver(mode: "fail")
            defer { receiver.remove() }
            let gateway = try Self.gateway(receiver, events: "retry_for_s: 2")
            defer { gateway.stop() }
            let original = try Self.buy(as: "erin", on: gateway).0
            var status: [String: Any] = [:]
            #expect(
                ManagedProcess.poll(for: .seconds(30)) {
                    status = (try? gateway.deployment.request("/v1/status").json) ?? [:]
                    let endpoint = (status["events"] as? [[String: Any]])?.first
                    return endpoint?["undeliverable"] as? Int == 2 && endpoint?["pending"] as? Int == 0
                }, "\(status)")
            #expect(receiver.attempts.count >= 2 && receiver.acknowledged.isEmpty)
            let metrics = try gateway.deployment.request("/v1/metrics").text
            #expect(metrics.contains(#"storegate_events_total{endpoint="backend",outcome="expired"} 2"#), "\(metrics)")
            #expect(metrics.contains(#"storegate_events_undeliverable{endpoint="backend"} 2"#), "\(metrics)")
            let lookup = try SupportLookup.lookUp(gateway, ["--transaction-id", original])
            #expect(lookup.output.contains("not delivered to backend in time"), "\(lookup.output)")
            #expect(gateway.logs.contains("an event could not be delivered in time and is kept"))

            // The receiver is back: a replay sends them, in order, under their ids.
            try receiver.set("ok")
            let setup = gateway.deployment.setup
            let replay = try CommandLine.run(
                ["events", "replay", "--config", gateway.deployment.configFile.path, "--since", "1h"],
                binary: setup.binary, environment: setup.environment)
            #expect(replay.output.contains("2 deliveries are pending again"), "\(replay.output) \(replay.errors)")
            #expect(receiver.waitForAcknowledged(2))
            #expect(Self.types(receiver, original) == ["purchase.recorded", "account.binding_changed"])
            #expect(Set(receiver.acknowledged.map(\.id)) == Set(receiver.attempts.map(\.id)))
        }

        @Test func aGatewayKilledMidDeliveryResendsOnlyWhatWasNotAcknowledged() throws {
            let receiver = try EventReceiver()
            defer { receiver.remove() }
            let gateway = try Self.gateway(receiver)
            defer { gateway.stop() }
            let first = try Self.buy(as: "dave", on: gateway).0
            #expect(receiver.waitForAcknowledged(2))
            try receiver.set("slow")
            let second = try Self.buy(as: "dave", on: gateway).0
            // The receiver has the second purchase's first event and has not answered: the gateway dies.
            #expect(ManagedProcess.poll(for: .seconds(10)) { receiver.attempts.contains { $0.original == second } })
            gateway.deployment.gateway.signal(SIGKILL)
            try receiver.set("ok")
            try gateway.deployment.restartGateway()
            // Sent again once the dead gateway's claim runs out (8 deliveries' timeouts and 5 s).
            #expect(receiver.waitForAcknowledged(4, within: .seconds(60)), "\(receiver.attempts.map(\.type))")
            let attempts = receiver.attempts
            #expect(attempts.filter { $0.original == first }.count == 2, "what was acknowledged is not sent again")
            let resent = attempts.filter { $0.original == second }
            #expect(resent.map(\.type) == ["purchase.recorded", "purchase.recorded", "account.binding_changed"])
            #expect(resent[0].id == resent[1].id, "the repeat carries the same id")
            #expect(Self.types(receiver, second) == ["purchase.recorded", "account.binding_changed"])
        }

        @Test func aReceiptTheLedgerCouldNotRecordSendsNoEventEvenAfterARestart() throws {
            let receiver = try EventReceiver()
            defer { receiver.remove() }
            let gateway = try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, environment: ["STOREGATE_LOG_REQUESTS": "false"],
                fileSizeLimit: 1_000_000, extra: receiver.config())
            defer { gateway.stop() }
            var acknowledged: [Int] = []
            var refused: [Int] = []
            for original in 8100..<8700 {
                let answer = try gateway.verify(try gateway.receipt(transactions: Faults.threePurchases(original)))
                if answer.status == 200, refused.isEmpty {
                    acknowledged.append(original)
                } else {
                    #expect(answer.errorCode == "ledger_unavailable", "\(answer.text)")
                    refused.append(original)
                    if refused.count == 3 { break }
                }
            }
            #expect(!acknowledged.isEmpty && refused.count == 3, "the disk never filled")
            // Space again: what the ledger acknowledged is delivered, once each; what it refused never happened.
            gateway.deployment.setup.fileSizeLimit = nil
            try gateway.deployment.restartGateway()
            let expected = Set(acknowledged.flatMap { ["\($0)1", "\($0)2", "\($0)3"] })
            #expect(
                ManagedProcess.poll(for: .seconds(60)) { Set(receiver.acknowledged.map(\.original)) == expected },
                "\(Set(receiver.acknowledged.map(\.original)).symmetricDifference(expected).sorted())")
            let refusedOriginals = Set(refused.flatMap { ["\($0)1", "\($0)2", "\($0)3"] })
            #expect(receiver.attempts.allSatisfy { !refusedOriginals.contains($0.original) })
            #expect(Set(receiver.acknowledged.map(\.id)).count == expected.count, "one purchase.recorded each")
        }

        @Test func twoGatewaysOnOnePostgreSQLDeliverEachEventOnce() throws {
            let postgres = try PrivatePostgres()
            defer { postgres.destroy() }
            let receiver = try EventReceiver()
            defer { receiver.remove() }
            let gateway = try Self.gateway(receiver, gateways: 2, ledgerURL: postgres.url)
            defer { gateway.stop() }
            let originals = concurrently(6) { index -> String? in
                let original = Accounts.id()
                let issue = try? SignedTransactions.signed(SampleContent.issueId, original)
                let verified = issue.flatMap { try? Accounts.post("verify", [$0], as: "reader-\(index)", to: gateway) }
                return verified?.status == 200 ? original : nil
            }.compactMap { $0 }
            #expect(originals.count == 6)
            #expect(receiver.waitForAcknowledged(12), "\(receiver.attempts.map(\.type))")
            #expect(receiver.attempts.count == 12, "no event was sent by both gateways")
            #expect(Set(receiver.attempts.map(\.id)).count == 12)
            for original in originals {
                #expect(Self.types(receiver, original) == ["purchase.recorded", "account.binding_changed"])
            }
        }
    }
}
