import Crypto
import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// `storegate notifications backfill` against a running deployment: notifications Apple sent while the
    /// route did not receive them are read from the stand-in's notification history (JWT checked, signed by
    /// the test chain) and recorded through the route's own path, once each.
    @Suite struct NotificationBackfill {
        static func backfill(_ gateway: VerifyDeployment, _ arguments: [String]) throws -> CommandLine.Outcome {
            let setup = gateway.deployment.setup
            return try CommandLine.run(
                ["notifications", "backfill", "--config", gateway.deployment.configFile.path] + arguments,
                binary: setup.binary, environment: setup.environment)
        }

        @Test func missedNotificationsAreRecordedOnceAndARefundAmongThemBlocksDownloads() throws {
            let gateway = try ServerAPIRoutes.gateway()
            defer { gateway.stop() }
            let (bought, tested) = (ServerAPIRoutes.id(), ServerAPIRoutes.id())
            var issue = ServerAPIRoutes.purchase(SampleContent.issueId, bought, customer: "reader")
            try gateway.appStore.addAPI([
                issue,
                ServerAPIRoutes.purchase(SampleContent.issueId, tested, customer: "tester", environment: "Sandbox"),
            ])
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(bought))
            let token = try #require(verified.downloadToken(for: SampleContent.issueId), "\(verified.text)")
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            // Apple refunds the issue; its notification, and a sandbox one, never reach the route.
            issue["revoked"] = "-40m"
            try gateway.appStore.addAPI([issue])
            try gateway.appStore.addNotifications([
                [
                    "notification_type": "REFUND", "transaction_id": bought, "notification_uuid": "bf-\(bought)",
                    "sent": "-30m",
                ],
                [
                    "notification_type": "ONE_TIME_CHARGE", "transaction_id": tested,
                    "notification_uuid": "bf-\(tested)",
                    "environment": "Sandbox", "sent": "-20m",
                ],
                [
                    "notification_type": "REFUND", "transaction_id": bought, "notification_uuid": "old-\(bought)",
                    "sent": "-3d",
                ],
            ])
            let first = try Self.backfill(gateway, ["--since", "2d"])
            #expect(first.status == 0, "\(first.output)\(first.errors)")
            #expect(first.output.contains("2 notifications sent from"), "\(first.output)")
            #expect(first.output.contains("2 recorded, 0 already recorded, 0 refused"), "\(first.output)")
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 403)
            let counts = try gateway.ledgerCounts()
            #expect(counts.transactions == 2)
            let paths = try gateway.appStore.apiCalls().compactMap { $0["path"] as? String }
            #expect(paths.contains("/inApps/v1/notifications/history"))
            #expect(paths.contains("/sandbox/inApps/v1/notifications/history"))
            let again = try Self.backfill(gateway, ["--since", "2d"])
            #expect(again.status == 0)
            #expect(again.output.contains("0 recorded, 2 already recorded, 0 refused"), "\(again.output)")
            #expect(try gateway.ledgerCounts() == counts)
        }

        @Test func aStartingGatewayRecordsWhatWasSentSinceTheLastNotification() throws {
            let gateway = try ServerAPIRoutes.gateway(environment: [
                "STOREGATE_APPLE_SERVER_API_BACKFILL_ON_START": "true"
            ])
            defer { gateway.stop() }
            #expect(ManagedProcess.poll(for: .seconds(10)) { gateway.logs.contains("no notification recorded yet") })
            let bought = ServerAPIRoutes.id()
            var issue = ServerAPIRoutes.purchase(SampleContent.issueId, bought, customer: "reader")
            try gateway.appStore.addAPI([issue])
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: ServerAPIRoutes.body(bought))
            let token = try #require(verified.downloadToken(for: SampleContent.issueId), "\(verified.text)")
            #expect(try Notifications.post("TEST", transaction: nil, to: gateway).status == 200)
            // While the gateway is down, Apple refunds the issue and its notification finds no one.
            gateway.deployment.gateway.stop()
            issue["revoked"] = Date().formatted(.iso8601)
            try gateway.appStore.addAPI([issue])
            try gateway.appStore.addNotifications([
                [
                    "notification_type": "REFUND", "transaction_id": bought, "notification_uuid": "start-\(bought)",
                    "sent": Date().formatted(.iso8601),
                ]
            ])
            try gateway.deployment.restartGateway()
            let blocked = ManagedProcess.poll(for: .seconds(20)) {
                (try? gateway.download(SampleContent.issueId, token: token).status) == 403
            }
            #expect(blocked, "\(gateway.logs)")
            // The summary is logged once the backfill has finished, a moment after the refund was recorded.
            let summarized = ManagedProcess.poll(for: .seconds(10)) {
                gateway.logs.contains("notifications backfilled at start")
            }
            #expect(summarized, "\(gateway.logs)")
            #expect(gateway.logs.contains("recorded=1"))
        }

        @Test func appleDownOrNoServerAPIFailsWithAReason() throws {
            let gateway = try ServerAPIRoutes.gateway()
            defer { gateway.stop() }
            try gateway.appStore.playAPI(Array(repeating: ["http_status": 503], count: 3))
            let down = try Self.backfill(gateway, ["--since", "1h"])
            #expect(down.status == 1)
            #expect(down.errors.contains("upstream_unavailable"), "\(down.errors)")
            let old = try Self.backfill(gateway, ["--since", "200d"])
            #expect(old.status == 2)
            #expect(old.errors.contains("180 days"), "\(old.errors)")
            let plain = try VerifyDeployment(apple: VerifyDeployment.trustingTestChain, delivery: "stream")
            defer { plain.stop() }
            let without = try Self.backfill(plain, ["--since", "1h"])
            #expect(without.status == 1)
            #expect(without.errors.contains("apple.server_api"), "\(without.errors)")
        }
    }
}
