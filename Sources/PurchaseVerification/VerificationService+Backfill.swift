import Foundation
import GatewayCore

extension VerificationService {
    /// Records the store server notifications sent between `start` and `end` that the ledger lacks (sent while
    /// no gateway answered, or given up on by the store), through the notification route's own path: verified,
    /// then recorded once per UUID, so running it again changes nothing. Throws when no backend can list
    /// notifications, when a store cannot answer now, or when the ledger cannot record; what was recorded
    /// before that stays, and a second run completes it.
    public func backfillNotifications(from start: Date, to end: Date, context: RequestContext) throws
        -> NotificationBackfill
    {
        var result = NotificationBackfill()
        var listedBySomeBackend = false
        for backend in backends {
            guard let bodies = try backend.notificationHistory(from: start, to: end, context: context) else { continue }
            listedBySomeBackend = true
            for body in bodies {
                result.listed += 1
                do {
                    switch try record(notification: body, context: context) {
                    case .recorded: result.recorded += 1
                    case .duplicate: result.duplicates += 1
                    }
                } catch let refusal as GatewayError where refusal.status < 500 {
                    result.refused += 1  // the backend logged why
                }
            }
        }
        guard listedBySomeBackend else {
            throw GatewayError.badRequest("No configured store can list its notifications (Apple: apple.server_api).")
        }
        return result
    }
}
