import Foundation

/// One completed notification backfill: the period read from the store and what it recorded. The ledger
/// keeps them so that the next backfill (a gateway's own, at start) knows where the last one ended.
package struct BackfillRun: Sendable, Equatable {
    /// What started it: `command` (`storegate notifications backfill`) or `start` (a gateway starting).
    package let trigger: String
    package let from: Date
    package let to: Date
    package let listed: Int
    package let recorded: Int
    package let duplicates: Int
    package let refused: Int
    package let finished: Date

    package init(
        trigger: String, from: Date, to: Date, listed: Int, recorded: Int, duplicates: Int, refused: Int,
        finished: Date = Date()
    ) {
        self.trigger = trigger
        self.from = from
        self.to = to
        self.listed = listed
        self.recorded = recorded
        self.duplicates = duplicates
        self.refused = refused
        self.finished = finished
    }

    /// The row of the `backfills` table, in `LedgerTable` column order; its key is made here.
    func row() -> [String?] {
        [
            UUID().uuidString, trigger, LedgerTime.text(from),
            LedgerTime.text(to), String(listed), String(recorded), String(duplicates),
            String(refused), LedgerTime.text(finished),
        ]
    }
}

/// The `backfills` table's SQL, the same in both stores.
enum BackfillTable {
    static func schema(integer: String) -> String {
        """
        CREATE TABLE backfills (
            backfill_id TEXT PRIMARY KEY, trigger TEXT NOT NULL, from_ms \(integer) NOT NULL,
            to_ms \(integer) NOT NULL, listed INTEGER NOT NULL, recorded INTEGER NOT NULL,
            duplicates INTEGER NOT NULL, refused INTEGER NOT NULL, finished_ms \(integer) NOT NULL);
        """
    }

    /// The newest moment the ledger has notifications up to: the last one received, or the last backfill's end.
    static let anchor = """
        SELECT CAST(max(moment) AS TEXT) FROM (
            SELECT max(received_ms) AS moment FROM notifications UNION ALL SELECT max(to_ms) FROM backfills) AS moments
        """

    static func date(_ rows: [[String?]]) -> Date? { LedgerTime.date(rows.first?.first ?? nil) }
}
