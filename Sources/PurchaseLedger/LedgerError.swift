/// The ledger could not do what was asked; nothing of the failed call was committed.
package struct LedgerError: Error, Sendable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case unavailable
        case unsupportedURL
    }

    private let code: Code
    /// What went wrong, for logs (never contains credentials from the ledger URL).
    package let reason: String

    private init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// The store could not be opened, read or written.
    package static func unavailable(_ reason: String) -> LedgerError { LedgerError(.unavailable, reason) }

    /// `ledger.url` names a store this build does not have.
    package static func unsupportedURL(_ reason: String) -> LedgerError { LedgerError(.unsupportedURL, reason) }

    /// True when a later attempt may succeed (the store is down), false for configuration mistakes.
    package var isTransient: Bool { code == .unavailable }

    package var description: String { "ledger \(code.rawValue): \(reason)" }
}
