/// What a notification backfill found and did, counted in notifications.
public struct NotificationBackfill: Sendable, Equatable {
    /// Listed by the stores for the period.
    public var listed = 0
    /// Recorded now: they had never reached the notification route.
    public var recorded = 0
    /// Recorded before (their UUID is in the ledger): nothing changed.
    public var duplicates = 0
    /// Refused by verification, each logged with why; the others were still recorded.
    public var refused = 0

    public init() {}
}
