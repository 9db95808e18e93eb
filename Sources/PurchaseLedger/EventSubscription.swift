/// An endpoint as the ledger knows it: its name, and which events it takes. Each event written while it is
/// configured gets a delivery to it, in the event's own transaction.
package struct EventSubscription: Sendable, Equatable {
    package let endpoint: String
    /// The event types it takes; nil for all.
    package let types: [String]?
    /// The environments whose events it takes; nil for all.
    package let environments: [String]?

    package init(endpoint: String, types: [String]?, environments: [String]?) {
        self.endpoint = endpoint
        self.types = types
        self.environments = environments
    }

    /// A list as the `event_endpoints` table keeps it: `*`, or the names between commas.
    static func column(_ names: [String]?) -> String {
        names.map { "," + $0.joined(separator: ",") + "," } ?? "*"
    }
}
