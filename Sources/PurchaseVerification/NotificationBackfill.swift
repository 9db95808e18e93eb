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
    /// Voided purchases the stores listed for the period (counted in `listed` too).
    package var voided = 0
    /// Of those, the ones that ended a purchase the ledger had not ended (counted in `recorded` too; the others in
    /// `duplicates`: ended before, or never recorded here).
    package var voidedEnded = 0

    package init() {}
}
