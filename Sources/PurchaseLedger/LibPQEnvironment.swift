import CLibPQ
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// libpq's `PG…` variables (`PGPASSWORD`, `PGHOST`, `PGSSLMODE`, …), which it reads from the environment at every
/// connection for each option the URL leaves out. Taken out of the environment when the binary starts, before
/// any handler module's code runs, and handed to libpq explicitly: a module could read a password there, and a
/// twenty-first reviewer's `name` getter set `PGHOSTADDR`, so the ledger's password went to an impostor. Any
/// `PG…` variable found again is removed before each connection.
package enum LibPQEnvironment {
    /// The variables and the connection keywords they stand for (libpq's own table, `PQconndefaults`).
    private static let taken = Mutex<[(keyword: String, value: String)]>([])

    /// Takes the `PG…` variables libpq reads out of this process's environment, keeping their values.
    package static func take() {
        let found = variables()
        taken.withLock { $0 = found.compactMap { name, value in keyword(for: name).map { ($0, value) } } }
        for (name, _) in found { unsetenv(name) }
    }

    /// The keywords and values to connect with: the variables taken at start, then `url`, which wins. Removes any
    /// `PG…` variable set since, so libpq reads none.
    static func parameters(url: String) -> [(keyword: String, value: String)] {
        for (name, _) in variables() { unsetenv(name) }
        return taken.withLock { $0 } + [("dbname", url)]
    }

    private static func variables() -> [(name: String, value: String)] {
        ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("PG") }.map { ($0.key, $0.value) }
    }

    /// The connection keyword libpq reads `name` for, if any.
    private static func keyword(for name: String) -> String? {
        guard let options = PQconndefaults() else { return nil }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if let variable = option.pointee.envvar, String(cString: variable) == name {
                return String(cString: keyword)
            }
            option += 1
        }
        return nil
    }
}
