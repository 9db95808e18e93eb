import Foundation
import Logging
import NIOHTTP1

extension ServerAPIClient {
    /// Get All Subscription Statuses: the latest transaction and renewal info of every subscription the
    /// customer who made `transactionId` has with the app.
    package func subscriptionStatuses(_ transactionId: String, deadline: ContinuousClock.Instant, logger: Logger)
        throws(ServerAPIFailure) -> [ServerAPISubscriptionStatus]
    {
        let id = try Self.pathSegment(transactionId, digitsOnly: true)
        return try inEitherEnvironment { environment throws(ServerAPIFailure) in
            let body = try send(
                .subscriptionStatuses, to: environment, method: .GET, path: "/inApps/v1/subscriptions/\(id)",
                deadline: deadline, logger: logger)
            guard let groups = try object(body, from: .subscriptionStatuses)["data"] as? [[String: Any]] else {
                throw .unavailable("the answer has no data list", retryAfter: .seconds(5))
            }
            var statuses: [ServerAPISubscriptionStatus] = []
            for group in groups {
                let groupId = group["subscriptionGroupIdentifier"] as? String ?? ""
                for last in group["lastTransactions"] as? [[String: Any]] ?? [] {
                    guard let transaction = last["signedTransactionInfo"] as? String else { continue }
                    statuses.append(
                        ServerAPISubscriptionStatus(
                            groupId: groupId, status: (last["status"] as? NSNumber)?.intValue ?? 0,
                            transaction: try verified(transaction),
                            renewal: try (last["signedRenewalInfo"] as? String).map { jws throws(ServerAPIFailure) in
                                try verified(jws)
                            }))
                }
            }
            return statuses
        }
    }
}
