import Foundation
import PurchaseLedger
import Testing

/// What only the SQLite ledger promises: its file format settings and its URL forms.
@Suite struct SQLiteLedgerTests {
    @Test func ledgerURLs() throws {
        #expect(
            try LedgerLocation(url: "sqlite:ledger.sqlite", baseDirectory: "/etc/storegate")
                == .sqlite(path: "/etc/storegate/ledger.sqlite"))
        #expect(
            try LedgerLocation(url: "sqlite:///var/lib/l.sqlite", baseDirectory: "/x")
                == .sqlite(path: "/var/lib/l.sqlite"))
        #expect(
            try LedgerLocation(url: "postgres://u:p@h/db", baseDirectory: "/x") == .postgres(url: "postgres://u:p@h/db")
        )
        #expect(throws: LedgerError.self) { try LedgerLocation(url: "mysql://h/db", baseDirectory: "/x") }
        #expect(throws: LedgerError.self) { try LedgerLocation(url: "sqlite:", baseDirectory: "/x") }
    }

    @Test func anUnwritablePlaceIsAClearError() {
        #expect(throws: LedgerError.self) { try SQLiteLedger(path: "/proc/no-such-dir/ledger.sqlite") }
    }

    @Test func theFileIsWrittenInWALMode() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString).sqlite").path
        let ledger = try SQLiteLedger(path: path)
        _ = try ledger.record(Sample.batch([Sample.consumable("1")]))
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    }
}
