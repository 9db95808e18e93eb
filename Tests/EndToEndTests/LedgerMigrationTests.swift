import Foundation
import Testing

extension EndToEnd {
    /// Moving from SQLite to PostgreSQL as docs/OPERATIONS.md describes: stop, `storegate ledger copy`, restart.
    @Suite struct LedgerMigration {
        private func copy(_ arguments: [String], log: URL) throws -> (status: Int32?, output: String) {
            let process = try ManagedProcess(Binaries.storegate.path, ["ledger", "copy"] + arguments, logFile: log)
            return (process.waitForExit(within: .seconds(60)), process.log)
        }

        @Test func aCopiedLedgerKeepsEveryPurchaseKnown() throws {
            let postgres = try PrivatePostgres()
            defer { postgres.destroy() }
            let transactions = [
                Receipt.transaction(SampleContent.issueId, "810001"),
                Receipt.transaction(SampleContent.monthlyId, "810002", lineItem: "910002", expires: "+20d"),
                Receipt.transaction(SampleContent.coinsId, "810003"),
            ]
            let before = try VerifyDeployment()
            defer { before.stop() }
            let restored = try before.restore(try before.receipt("migrating-device", transactions: transactions))
            #expect(restored.json["recorded"] as? Int == 3)
            before.deployment.gateway.stop()

            let log = before.deployment.folder.appendingPathComponent("copy.log")
            let sqlite = "sqlite://\(before.ledgerPath)"
            let first = try copy(["--from", sqlite, "--to", postgres.url], log: log)
            #expect(first.status == 0, "\(first.output)")
            #expect(first.output.contains("purchases: 3 read, 3 added"), "\(first.output)")
            #expect(first.output.contains("transactions: 3 read, 3 added"))
            let again = try copy(["--from", sqlite, "--to", postgres.url], log: log)
            #expect(again.output.contains("purchases: 3 read, 0 added"), "\(again.output)")
            let wrong = try copy(["--from", sqlite, "--to", "mysql://db/storegate"], log: log)
            #expect(wrong.status == 1)
            #expect(wrong.output.contains("must start with sqlite: or postgres://"), "\(wrong.output)")

            let after = try VerifyDeployment(ledgerURL: postgres.url)
            defer { after.stop() }
            let answer = try after.restore(try after.receipt("migrating-device", transactions: transactions))
            #expect(answer.status == 200)
            #expect(answer.json["recorded"] as? Int == 0)
            #expect(answer.json["known"] as? Int == 3)
            #expect(answer.entitlementProducts == [SampleContent.issueId, SampleContent.monthlyId])
        }
    }
}
