/// What differs between the two stores' SQL where the outbox's triggers are written once for both: integers,
/// placeholders, ids, dates as text, JSON objects and list membership.
enum LedgerDialect {
    case sqlite, postgres

    var integer: String { self == .sqlite ? "INTEGER" : "BIGINT" }

    func placeholder(_ number: Int) -> String { self == .sqlite ? "?\(number)" : "$\(number)" }

    /// A new event id: `evt_` and 32 random hex digits.
    var newEventId: String {
        switch self {
        case .sqlite: "'evt_' || lower(hex(randomblob(16)))"
        case .postgres: "'evt_' || replace(CAST(gen_random_uuid() AS TEXT), '-', '')"
        }
    }

    /// The moment `milliseconds` (since 1970) as ISO 8601 text in UTC to the millisecond; NULL stays NULL. Both
    /// count whole milliseconds (SQLite rounds its seconds to them, PostgreSQL adds an interval), so the two
    /// agree to the digit.
    func iso(_ milliseconds: String) -> String {
        switch self {
        case .sqlite:
            "strftime('%Y-%m-%dT%H:%M:%fZ', (\(milliseconds)) / 1000.0, 'unixepoch')"
        case .postgres:
            """
            to_char(TIMESTAMP '1970-01-01' + (\(milliseconds)) * INTERVAL '1 millisecond', \
            'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
            """
        }
    }

    /// A JSON object of `members` (name, SQL expression), as text.
    func object(_ members: [(String, String)]) -> String {
        let listed = members.map { "'\($0.0)', \($0.1)" }.joined(separator: ", ")
        return self == .sqlite ? "json_object(\(listed))" : "CAST(json_build_object(\(listed)) AS TEXT)"
    }

    /// Whether `list` (`*`, or names between commas: `,a,b,`) holds `value`.
    func listHolds(_ list: String, _ value: String) -> String {
        let position =
            self == .sqlite ? "instr(\(list), ',' || \(value) || ',')" : "strpos(\(list), ',' || \(value) || ',')"
        return "(\(list) = '*' OR \(position) > 0)"
    }
}
