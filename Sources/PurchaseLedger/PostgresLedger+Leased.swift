import Foundation

extension PostgresLedger {
    /// Claims up to `limit` rows of `leased` (in `scope`: the value of its scope column, if any) due at `now`, for
    /// `lease`, each read by `read`. Each claim re-checks its row under PostgreSQL's row lock: of two gateways, one
    /// wins it.
    func claim<Claimed>(
        _ leased: LeasedRows, scope: String? = nil, now: Date, lease: TimeInterval, limit: Int,
        read: ([String?]) -> Claimed?
    ) throws(LedgerError) -> [Claimed] {
        let (at, until) = (LedgerTime.text(now), LedgerTime.text(now + lease))
        return try pool.withConnection { connection throws(LedgerError) in
            let due = try connection.execute(
                leased.due { "$\($0)" }, ([scope, at] as [String?]).compactMap { $0 } + [String(limit)])
            var claimed: [Claimed] = []
            for key in due.compactMap({ $0.first ?? nil }) {
                let rows = try connection.execute(leased.claim { "$\($0)" }, [key, at, until])
                if let row = rows.first.flatMap(read) { claimed.append(row) }
            }
            return claimed
        }
    }

    /// Releases row `key` of `leased` for another attempt at `nextAttempt`, counting the attempt.
    func deferLeased(_ leased: LeasedRows, _ key: String, until nextAttempt: Date, outcome: String)
        throws(LedgerError)
    {
        try pool.withConnection { connection throws(LedgerError) in
            try connection.execute(leased.deferral { "$\($0)" }, [key, LedgerTime.text(nextAttempt), outcome])
        }
    }
}
