/// What a notification backfill found and did, counted in notifications.
package struct NotificationBackfill: Sendable, Equatable {
    /// Listed by the stores for the period.
    package var listed = 0
    /// Recorded now: they had never reached the notification route.
    package var recorded = 0
    /// Recorded before (their UUID is in the ledger): nothing changed.
    package var duplicates = 0
    /// Refused by verification, each logged with why; the others were still recorded.
    package var refused = 0

    package init() {}
}
