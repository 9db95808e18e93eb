import Foundation
import GRDB

extension SQLiteLedger {
    package func recordGrant(_ grant: FreeGrant) throws(LedgerError) {
        try guarded {
            try pool.write { db in
                for write in FreeGrantTable.writes(grant, placeholder: { "?\($0)" }) {
                    try db.execute(sql: write.sql, arguments: StatementArguments(write.arguments))
                }
            }
        }
    }

    package func revokeGrant(_ id: String, by: String, reason: String, at: Date) throws(LedgerError) -> FreeGrant? {
        try guarded {
            try pool.write { db in
                for write in FreeGrantTable.revocations(id, by: by, reason: reason, at: at, placeholder: { "?\($0)" }) {
                    try db.execute(sql: write.sql, arguments: StatementArguments(write.arguments))
                }
            }
        }
        return try freeGrants(.id(id)).first
    }

    package func freeGrants(_ selection: FreeGrantSelection) throws(LedgerError) -> [FreeGrant] {
        let (sql, arguments) = FreeGrantTable.query(selection) { "?\($0)" }
        return try texts(sql, arguments).compactMap(FreeGrantTable.grant)
    }
}
