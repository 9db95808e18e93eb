import Foundation
import Logging
import NIOHTTP1

extension ServerAPIClient {
    /// Get Notification History: the `signedPayload` of every notification Apple sent (or tried to send)
    /// for the app between `start` and `end`, all pages, oldest first as Apple lists them. The payloads are
    /// handed on as Apple sent them, for the notification route's own path to verify and record.
    package func notificationHistory(
        from start: Date, to end: Date, environment: ServerAPIEnvironment, deadline: ContinuousClock.Instant,
        logger: Logger
    ) throws(ServerAPIFailure) -> [String] {
        let range =
            #"{"startDate":\#(Int64(start.timeIntervalSince1970 * 1000)),"endDate":\#(Int64(end.timeIntervalSince1970 * 1000))}"#
        return try everyPage(.notificationHistory, tokenKey: "paginationToken") { token throws(ServerAPIFailure) in
            let query = token.map { "?paginationToken=" + Self.queryValue($0) } ?? ""
            let body = try send(
                .notificationHistory, to: environment, method: .POST, path: "/inApps/v1/notifications/history" + query,
                body: Array(range.utf8), deadline: deadline, logger: logger)
            let object = try object(body, from: .notificationHistory)
            guard let items = object["notificationHistory"] as? [[String: Any]] else {
                throw .unavailable("the answer has no notificationHistory list", retryAfter: .seconds(5))
            }
            return (items.compactMap { $0["signedPayload"] as? String }, object)
        }
    }

    /// Send Consumption Information (the current version) for `transactionId`; Apple answers 202.
    package func sendConsumption(
        _ information: ServerAPIConsumption, for transactionId: String, environment: ServerAPIEnvironment,
        deadline: ContinuousClock.Instant, logger: Logger
    ) throws(ServerAPIFailure) {
        let id = try Self.pathSegment(transactionId, digitsOnly: true)
        _ = try send(
            .consumption, to: environment, method: .PUT, path: "/inApps/v2/transactions/consumption/\(id)",
            body: information.json, deadline: deadline, logger: logger)
    }

    /// Set App Account Token: `token` (a UUID) becomes the app account of the purchase `originalTransactionId`,
    /// so Apple's later transactions and notifications name it. Apple answers 200.
    package func setAppAccountToken(
        _ token: UUID, originalTransactionId: String, environment: ServerAPIEnvironment,
        deadline: ContinuousClock.Instant, logger: Logger
    ) throws(ServerAPIFailure) {
        let id = try Self.pathSegment(originalTransactionId, digitsOnly: true)
        _ = try send(
            .appAccountToken, to: environment, method: .PUT, path: "/inApps/v1/transactions/\(id)/appAccountToken",
            body: Array("{\"appAccountToken\":\"\(token.uuidString.lowercased())\"}".utf8), deadline: deadline,
            logger: logger)
    }

    /// Finish Transaction (API 1.20): the gateway delivered what `transactionId` bought, so the App Store need
    /// not wait for the app to finish it. Apple answers 200 with no body; a second call changes nothing.
    package func finishTransaction(
        _ transactionId: String, environment: ServerAPIEnvironment, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(ServerAPIFailure) {
        let id = try Self.pathSegment(transactionId, digitsOnly: true)
        _ = try send(
            .finishTransaction, to: environment, method: .POST, path: "/inApps/v1/transactions/\(id)/finish",
            deadline: deadline, logger: logger)
    }
}
