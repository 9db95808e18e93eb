import Foundation

extension PostgresLedger {
    package func recordGrant(_ grant: FreeGrant) throws(LedgerError) {
        try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                for write in FreeGrantTable.writes(grant, placeholder: { "$\($0)" }) {
                    try connection.execute(write.sql, write.arguments)
                }
            }
        }
    }

    package func revokeGrant(_ id: String, by: String, reason: String, at: Date) throws(LedgerError) -> FreeGrant? {
        try pool.withConnection { connection throws(LedgerError) in
            try Self.inTransaction(connection) { () throws(LedgerError) in
                for write in FreeGrantTable.revocations(id, by: by, reason: reason, at: at, placeholder: { "$\($0)" }) {
                    try connection.execute(write.sql, write.arguments)
                }
            }
        }
        return try freeGrants(.id(id)).first
    }

    package func freeGrants(_ selection: FreeGrantSelection) throws(LedgerError) -> [FreeGrant] {
        let (sql, arguments) = FreeGrantTable.query(selection) { "$\($0)" }
        return try texts(sql, arguments).compactMap(FreeGrantTable.grant)
    }
}
