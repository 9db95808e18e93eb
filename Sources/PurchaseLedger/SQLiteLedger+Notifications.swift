import GRDB

extension SQLiteLedger {
    /// Records a notification in its own savepoint: its row, its transactions, and for REFUND_REVERSED the
    /// cleared cancellations, or nothing at all if its UUID is already there.
    static func record(_ notification: LedgerNotification, in db: Database) throws -> Result<RecordOutcome, LedgerError>
    {
        var outcome = Result<RecordOutcome, LedgerError>.success(RecordOutcome(recorded: 0, known: 1))
        try db.inSavepoint {
            try db.cachedStatement(sql: LedgerTable.notifications.insertStatement { _ in "?" }).execute(
                arguments: StatementArguments(
                    notification.row(receivedMilliseconds: LedgerTime.milliseconds(notification.batch.recordedAt))))
            guard db.changesCount > 0 else { return .commit }
            if case .failure(let error) = try record(notification.batch, in: db) {
                outcome = .failure(error)
                return .rollback
            }
            for statement in notification.updates(placeholder: { _ in "?" }) {
                try db.execute(sql: statement.sql, arguments: StatementArguments(statement.arguments))
            }
            for insert in [
                notification.consumptionRequestInsert(placeholder: { _ in "?" }),
                notification.renewalInsert(placeholder: { _ in "?" }),
            ].compactMap({ $0 }) {
                try db.execute(sql: insert.sql, arguments: StatementArguments(insert.arguments))
            }
            outcome = .success(RecordOutcome(recorded: 1, known: 0))
            return .commit
        }
        return outcome
    }
}
