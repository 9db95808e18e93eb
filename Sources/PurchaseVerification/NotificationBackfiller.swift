import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseLedger

/// Notification backfills: the notifications a store sent in a period that the ledger lacks, recorded through
/// the notification route's own path; from `storegate notifications backfill`, or at a gateway's start.
package struct NotificationBackfiller: Sendable {
    private let stores: StoreBackends
    private let notifications: NotificationRecorder
    private let ledger: any PurchaseLedger

    package init(stores: StoreBackends, notifications: NotificationRecorder, ledger: any PurchaseLedger) {
        self.stores = stores
        self.notifications = notifications
        self.ledger = ledger
    }

    /// Whether a store asks for a backfill when a gateway starts.
    package var runsAtStart: Bool { stores.backends.contains(where: \.backfillsNotificationsAtStart) }

    /// Records the store server notifications sent between `start` and `end` that the ledger lacks (sent while
    /// no gateway answered, or given up on by the store), through the notification route's own path: verified,
    /// then recorded once per UUID, so running it again changes nothing. Throws when no backend can list
    /// notifications, when a store cannot answer now, or when the ledger cannot record; what was recorded
    /// before that stays, and a second run completes it.
    /// Each completed backfill is recorded in the ledger under `trigger`, so the next one knows where it ended.
    package func backfillNotifications(
        from start: Date, to end: Date, trigger: String = "command", context: RequestContext
    ) throws -> NotificationBackfill {
        var result = NotificationBackfill()
        var listedBySomeBackend = false
        for backend in stores.backends {
            guard let bodies = try backend.notificationHistory(from: start, to: end, context: context) else { continue }
            listedBySomeBackend = true
            for body in bodies {
                result.listed += 1
                do {
                    switch try notifications.record(NotificationDelivery(body: body), context: context) {
                    case .recorded: result.recorded += 1
                    case .duplicate: result.duplicates += 1
                    }
                } catch let refusal as GatewayError where refusal.status < 500 {
                    result.refused += 1  // the backend logged why
                }
            }
        }
        for backend in stores.backends {
            guard let voided = try backend.voidedPurchases(from: start, to: end, context: context) else { continue }
            listedBySomeBackend = true
            try endVoided(voided, into: &result, context: context)
        }
        guard listedBySomeBackend else {
            throw GatewayError.badRequest(
                "No configured store can list its notifications (Apple: apple.server_api) or voided purchases (Google Play)."
            )
        }
        try ledger.recordBackfill(
            BackfillRun(
                trigger: trigger, from: start, to: end, listed: result.listed, recorded: result.recorded,
                duplicates: result.duplicates, refused: result.refused))
        return result
    }

    /// Ends, at the time the store voided it, each purchase of `voided` that the ledger knows and has not ended.
    private func endVoided(_ voided: [VoidedPurchase], into result: inout NotificationBackfill, context: RequestContext)
        throws(GatewayError)
    {
        for purchase in voided {
            result.listed += 1
            result.voided += 1
            let ended = try ledger.endPurchases(
                knownBy: purchase.handle, store: purchase.store, at: purchase.voidedAt, source: .notification,
                context: context)
            if ended > 0 {
                result.recorded += 1
                result.voidedEnded += 1
            } else {
                result.duplicates += 1
            }
        }
    }

    /// One poll of `backend`'s voided purchases between `start` and now, recorded as a backfill (`poll`); logged,
    /// never thrown: the next poll tries again. Returns where the next poll starts: ten minutes before now (a
    /// store may list a purchase voided a moment ago a little later), or `start` again when this one failed.
    package func pollVoided(_ backend: any VerificationBackend, from start: Date, context: RequestContext) -> Date {
        let end = Date()
        var result = NotificationBackfill()
        do {
            guard let voided = try backend.voidedPurchases(from: start, to: end, context: context) else {
                return end
            }
            try endVoided(voided, into: &result, context: context)
            try ledger.recordBackfill(
                BackfillRun(
                    trigger: "poll", from: start, to: end, listed: result.listed, recorded: result.recorded,
                    duplicates: result.duplicates, refused: 0))
        } catch {
            context.logger.warning("voided purchases could not be polled", metadata: ["reason": "\(error)"])
            return start
        }
        if result.voidedEnded > 0 {
            context.logger.info(
                "voided purchases polled", metadata: ["listed": "\(result.voided)", "ended": "\(result.voidedEnded)"])
        }
        return max(start, end.addingTimeInterval(-600))
    }

    /// At a gateway's start, when a backend asks for it: the notifications sent since the ledger's last one
    /// (or the last backfill's end), less a 10-minute overlap, recorded as a backfill would (once each).
    package func backfillSinceLastRecorded(logger: Logger, requestId: String) {
        let since: Date
        do {
            guard let until = try ledger.notificationsRecordedUntil() else {
                logger.info(
                    "no notification recorded yet, so none to backfill from; storegate notifications backfill --since reads any period"
                )
                return
            }
            since = max(until.addingTimeInterval(-600), Date(timeIntervalSinceNow: -179 * 86_400))
        } catch {
            logger.warning("the ledger could not say where to backfill from", metadata: ["reason": "\(error)"])
            return
        }
        let context = RequestContext(requestId: requestId, deadline: .now + .seconds(600), logger: logger)
        do {
            let result = try backfillNotifications(from: since, to: Date(), trigger: "start", context: context)
            logger.info(
                "notifications backfilled at start",
                metadata: [
                    "since": "\(since.formatted(.iso8601))", "listed": "\(result.listed)",
                    "recorded": "\(result.recorded)", "duplicates": "\(result.duplicates)",
                    "refused": "\(result.refused)",
                ])
        } catch {
            logger.warning("notifications could not be backfilled at start", metadata: ["reason": "\(error)"])
        }
    }
}
