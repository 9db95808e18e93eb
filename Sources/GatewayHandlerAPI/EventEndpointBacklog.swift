/// One events endpoint's backlog, for the status route: what waits for it, and what it never took in time.
public struct EventEndpointBacklog: Sendable, Equatable {
    /// The endpoint's name in the config.
    public let endpoint: String
    /// Events not delivered yet.
    public let pending: Int
    /// How long the oldest of them has waited, in seconds; 0 when none waits.
    public let oldestPendingSeconds: Int
    /// Events it never acknowledged within the retry window, kept in the ledger (a replay sends them again).
    public let undeliverable: Int

    package init(endpoint: String, pending: Int, oldestPendingSeconds: Int, undeliverable: Int) {
        self.endpoint = endpoint
        self.pending = pending
        self.oldestPendingSeconds = oldestPendingSeconds
        self.undeliverable = undeliverable
    }
}
