import AppStoreServerAPI
import AppStoreSim
import Foundation
import Testing

/// The endpoints beyond transactions: orders, refunds, subscriptions, notification history, consumption.
@Suite struct ServerAPIEndpointsTests {
    @Test func anOrderIdFindsItsTransactionsAndAnUnknownOneIsNotFound() async throws {
        var purchases = ServerAPIClientTests.purchases(3)
        purchases[0].orderId = "MK5TTTVWJH"
        purchases[2].orderId = "MK5TTTVWJH"
        let bed = try ServerAPITestbed(transactions: purchases, acceptSandbox: false)
        defer { bed.server.close() }
        let order = try await bed.value { try $0.lookUpOrder("MK5TTTVWJH", deadline: .soon, logger: .test) }
        #expect(order.compactMap { ServerAPIClientTests.field($0, "transactionId") } == ["2000001", "2000003"])
        let failure = await bed.failure { try $0.lookUpOrder("NOSUCHORDER", deadline: .soon, logger: .test) }
        #expect(failure?.isNotFound == true)
    }

    @Test func refundHistoryListsOnlyRefundsAcrossPages() async throws {
        var purchases = ServerAPIClientTests.purchases(6)
        for index in [1, 2, 4] { purchases[index].revoked = "-1h" }
        let bed = try ServerAPITestbed(transactions: purchases, pageSize: 2)
        defer { bed.server.close() }
        let refunds = try await bed.value { try $0.refundHistory("2000001", deadline: .soon, logger: .test) }
        #expect(
            refunds.compactMap { ServerAPIClientTests.field($0, "transactionId") } == ["2000002", "2000003", "2000005"])
        #expect(bed.serverAPI.calls.count == 2)
    }

    @Test func subscriptionStatusesCarryVerifiedTransactionAndRenewalInfo() async throws {
        var active = SimAPITransaction(transactionId: "3000001", productId: "com.example.monthly")
        active.type = "Auto-Renewable Subscription"
        active.expires = "+20d"
        var lapsed = SimAPITransaction(transactionId: "3000002", productId: "com.example.yearly")
        lapsed.type = "Auto-Renewable Subscription"
        lapsed.expires = "-2d"
        let bed = try ServerAPITestbed(transactions: [active, lapsed])
        defer { bed.server.close() }
        let statuses = try await bed.value { try $0.subscriptionStatuses("3000001", deadline: .soon, logger: .test) }
        #expect(statuses.map(\.status) == [1, 2])
        #expect(
            statuses.compactMap { ServerAPIClientTests.field($0.transaction, "productId") } == [
                "com.example.monthly", "com.example.yearly",
            ])
        #expect(statuses.allSatisfy { $0.renewal != nil })
    }

    @Test func notificationHistoryReadsEveryPageInTheRange() async throws {
        let bed = try ServerAPITestbed(transactions: ServerAPIClientTests.purchases(1), pageSize: 2)
        defer { bed.server.close() }
        bed.serverAPI.add(
            (1...5).map {
                SimAPINotification(
                    notificationType: "REFUND", transactionId: "2000001", notificationUUID: "uuid-\($0)",
                    sent: "-\($0)h")
            }
                + [
                    SimAPINotification(
                        notificationType: "REFUND", transactionId: "2000001", notificationUUID: "too-old", sent: "-3d")
                ])
        let payloads = try await bed.value {
            try $0.notificationHistory(
                from: Date().addingTimeInterval(-86_400), to: Date(), environment: .production, deadline: .soon,
                logger: .test)
        }
        #expect(payloads.count == 5)
        #expect(
            bed.serverAPI.calls.map(\.path) == [
                "/inApps/v1/notifications/history", "/inApps/v1/notifications/history?paginationToken=p2",
                "/inApps/v1/notifications/history?paginationToken=p4",
            ])
        #expect(bed.serverAPI.calls.allSatisfy { $0.method == "POST" && $0.body.contains("\"startDate\":") })
    }

    @Test func consumptionInformationIsSentAsApplesJSON() async throws {
        let bed = try ServerAPITestbed(transactions: ServerAPIClientTests.purchases(1))
        defer { bed.server.close() }
        let information = ServerAPIConsumption(
            customerConsented: true, sampleContentProvided: false, deliveryStatus: .delivered,
            consumptionPercentage: 250_000, refundPreference: .decline)
        try await bed.value {
            try $0.sendConsumption(
                information, for: "2000001", environment: .production, deadline: .soon, logger: .test)
        }
        let call = try #require(bed.serverAPI.calls.last)
        #expect(call.method == "PUT")
        #expect(call.path == "/inApps/v2/transactions/consumption/2000001")
        #expect(
            call.body
                == #"{"consumptionPercentage":100000,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"DECLINE","sampleContentProvided":false}"#
        )
        var withoutConsent = information
        withoutConsent.customerConsented = false
        let refused = withoutConsent
        let failure = await bed.failure {
            try $0.sendConsumption(refused, for: "2000001", environment: .production, deadline: .soon, logger: .test)
        }
        #expect(failure?.isRejected == true)
    }

    @Test func anAppAccountTokenIsSetOnAPurchaseAndNamedInItsTransactions() async throws {
        var purchases = ServerAPIClientTests.purchases(2)
        purchases[1].originalTransactionId = "2000001"
        let bed = try ServerAPITestbed(transactions: purchases)
        defer { bed.server.close() }
        let token = try #require(UUID(uuidString: "7D3F2C1A-0000-4000-8000-000000000042"))
        try await bed.value {
            try $0.setAppAccountToken(
                token, originalTransactionId: "2000001", environment: .production, deadline: .soon, logger: .test)
        }
        let call = try #require(bed.serverAPI.calls.last)
        #expect(call.method == "PUT")
        #expect(call.path == "/inApps/v1/transactions/2000001/appAccountToken")
        #expect(call.body == #"{"appAccountToken":"7d3f2c1a-0000-4000-8000-000000000042"}"#)
        for id in ["2000001", "2000002"] {
            let info = try await bed.value { try $0.transactionInfo(id, deadline: .soon, logger: .test) }
            #expect(ServerAPIClientTests.field(info, "appAccountToken") == "7d3f2c1a-0000-4000-8000-000000000042")
        }
        // Apple's refusals: a transaction that is not an original one, and one it does not know.
        let notOriginal = await bed.failure {
            try $0.setAppAccountToken(
                token, originalTransactionId: "2000002", environment: .production, deadline: .soon, logger: .test)
        }
        #expect(notOriginal?.isRejected == true)
        let unknown = await bed.failure {
            try $0.setAppAccountToken(
                token, originalTransactionId: "2999999", environment: .production, deadline: .soon, logger: .test)
        }
        #expect(unknown?.isNotFound == true)
    }
}
