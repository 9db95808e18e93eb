import Foundation
import GRDB
import Synchronization
import Testing

@testable import PurchaseLedger

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

    @Test func gatewaysOpeningANewFileTogetherAllStart() throws {
        for _ in 0..<5 {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("race-\(UUID()).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let opened = Mutex(0)
            let failures = Mutex<[String]>([])
            // The race is the point, not the time: a loaded machine may keep the migrating one past 5 s.
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                do {
                    _ = try SQLiteLedger(path: path, busyTimeout: 60)
                    opened.withLock { $0 += 1 }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            #expect(opened.withLock { $0 } == 4, "\(failures.withLock { $0 })")
        }
    }

    /// A ledger from before each store's requests were told apart: a request pending then is still the App
    /// Store's to answer once the ledger is upgraded.
    @Test func aRequestRecordedBeforeStoresWereToldApartStaysTheAppStores() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID()).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let old = try DatabaseQueue(path: path)
        try SQLiteLedger.migrator.migrate(old, upTo: "v11 store handles")
        try old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO consumption_requests (notification_uuid, environment, transaction_id,
                        original_transaction_id, product_id, requested_ms, state, attempts, next_attempt_ms)
                        VALUES ('n-old', 'Production', '5', '5', 'com.example.issue5', 1700000000000, 'pending', 0,
                        1700000000000)
                    """)
        }
        try old.close()
        let ledger = try SQLiteLedger(path: path)
        #expect(try ledger.claimConsumptionRequests(store: "google-play", now: Date(), lease: 60, limit: 5).isEmpty)
        let claimed = try ledger.claimConsumptionRequests(store: "app-store", now: Date(), lease: 60, limit: 5)
        #expect(claimed.map(\.notificationUUID) == ["n-old"])
        #expect(claimed.first?.app == nil && claimed.first?.subject == nil)
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

/// The PostgreSQL suite is part of the test command, not optional: without a server it fails here.
@Suite struct PostgresTestServer {
    @Test func aReaderConnectionKeptForTheNextRequestSeesWhatWasCommittedSince() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rd-\(UUID().uuidString).sqlite").path
        let ledger = try SQLiteLedger(path: path)
        let readers = SQLiteReaders(path: path, busyTimeout: 1, cacheKiB: 64)
        @Sendable func count() throws -> Int {
            try readers.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM purchases") ?? -1 }
        }
        #expect(try count() == 0)
        _ = try ledger.record(Sample.batch([Sample.nonConsumable("50", original: "50")]))
        // The same connection reads again: no snapshot older than the commit.
        #expect(try count() == 1)
        #expect(readers.openCount == 1)
        // Each thread reads on a connection of its own, kept for its later reads.
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for _ in 0..<50 { #expect((try? count()) == 1) }
        }
        let opened = readers.openCount
        #expect((1...5).contains(opened))
        #expect(try count() == 1)
        #expect(readers.openCount == opened)
        #expect(throws: (any Error).self) { try readers.read { try $0.execute(sql: "DELETE FROM purchases") } }
        // Each keeps the page cache it was given (SQLite writes a size in KiB as its negative).
        #expect(try readers.read { try Int.fetchOne($0, sql: "PRAGMA cache_size") } == -64)
    }

    /// `ledger.read_cache_kib` bounds the ledger's read connections, the pool's too; its writer keeps SQLite's
    /// default cache for the pages inserts walk.
    @Test func readConnectionsKeepTheCacheTheyAreGiven() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rc-\(UUID().uuidString).sqlite").path
        let ledger = try SQLiteLedger(path: path, readCacheKiB: 96)
        #expect(try ledger.pool.read { try Int.fetchOne($0, sql: "PRAGMA cache_size") } == -96)
        #expect(try ledger.pool.write { try Int.fetchOne($0, sql: "PRAGMA cache_size") } == -2000)
    }

    @Test func theTestCommandProvidesAPostgreSQLServer() throws {
        _ = try #require(LedgerUnderTest.postgresURL, "run the tests with Tests/run.sh, which starts PostgreSQL")
        try PostgresLedger(url: try LedgerUnderTest.freshPostgresURL(), poolSize: 1).checkHealth()
    }

    @Test func gatewaysStartingTogetherMigrateOnce() throws {
        let scoped = try LedgerUnderTest.freshPostgresURL()
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 6) { _ in
            if (try? PostgresLedger(url: scoped, poolSize: 1)) == nil { failures.withLock { $0 += 1 } }
        }
        #expect(failures.withLock { $0 } == 0)
        let versions = try PostgresConnection(url: scoped).execute(
            "SELECT version FROM storegate_migrations ORDER BY 1")
        #expect(versions.map { $0[0] } == (1...17).map { String($0) }, "each migration once")
    }

    @Test func aDownServerIsAClearErrorNotAHang() {
        #expect(throws: LedgerError.self) {
            try PostgresLedger(url: "postgres://storegate:x@127.0.0.1:1/none?connect_timeout=2", poolSize: 1)
        }
    }
}
