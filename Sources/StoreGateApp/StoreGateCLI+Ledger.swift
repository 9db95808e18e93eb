import Foundation
import PurchaseLedger

extension StoreGateCLI {
    /// `storegate ledger copy --from URL --to URL`: moves a ledger between stores (SQLite to PostgreSQL when
    /// a deployment outgrows one host). Rows the target has are kept, so an interrupted copy can run again.
    func copyLedger(from: String, to: String) -> Int32 {
        let here = FileManager.default.currentDirectoryPath
        do throws(LedgerError) {
            let source = try LedgerLocation(url: from, baseDirectory: here).open(poolSize: 1)
            let target = try LedgerLocation(url: to, baseDirectory: here).open(poolSize: 1)
            for copied in try source.copy(into: target) {
                print("\(copied.table.rawValue): \(copied.read) read, \(copied.added) added")
            }
            let counts = try target.counts()
            print("the target holds \(counts.purchases) purchases and \(counts.transactions) transactions")
            return 0
        } catch {
            FileHandle.standardError.write(Data("storegate ledger copy: \(error)\n".utf8))
            return 1
        }
    }
}
