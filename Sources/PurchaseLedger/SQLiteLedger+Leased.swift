import Foundation
import GRDB

extension SQLiteLedger {
    /// Claims up to `limit` rows of `leased` (in `scope`: the value of its scope column, if any) due at `now`, for
    /// `lease`, each read by `read`: one write transaction, so no other caller claims them meanwhile.
    func claim<Claimed>(
        _ leased: LeasedRows, scope: String? = nil, now: Date, lease: TimeInterval, limit: Int,
        read: @escaping ([String?]) -> Claimed?
    ) throws(LedgerError) -> [Claimed] {
        let (at, until) = (LedgerTime.text(now), LedgerTime.text(now + lease))
        return try guarded {
            try pool.write { db in
                let due = try String.fetchAll(
                    db, sql: leased.due { "?\($0)" },
                    arguments: (scope.map { [$0] } ?? []) + [at, limit])
                return try due.compactMap { key in
                    try Row.fetchOne(db, sql: leased.claim { "?\($0)" }, arguments: [key, at, until])
                        .flatMap { read(Self.texts($0)) }
                }
            }
        }
    }

    /// Releases row `key` of `leased` for another attempt at `nextAttempt`, counting the attempt.
    func deferLeased(_ leased: LeasedRows, _ key: String, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try guarded {
            try pool.write { db in
                try db.execute(
                    sql: leased.deferral { "?\($0)" }, arguments: [key, LedgerTime.text(nextAttempt), outcome])
            }
        }
    }

    /// A row whose columns were all selected as text.
    static func texts(_ row: Row) -> [String?] { (0..<row.count).map { row[$0] } }
}
