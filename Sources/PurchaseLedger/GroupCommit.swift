import Foundation

/// Group commit: batches recorded at the same moment share one database transaction, and so one fsync.
/// The first caller leads: it commits everything queued, then hands leadership to the oldest batch that
/// arrived meanwhile (so no caller waits behind an endless stream of others) and returns. Every caller
/// returns only once the transaction holding its batch has committed, with its own batch's outcome.
final class GroupCommit<Item: Sendable, Outcome: Sendable>: @unchecked Sendable {
    /// Commits a group; returns one result per item, in order. Throwing fails the whole group.
    typealias Committer = @Sendable ([Item]) throws(LedgerError) -> [Result<Outcome, LedgerError>]

    private struct State {
        var queue: [Ticket] = []
        var leading = false
    }

    // A plain pthread mutex: every download and new purchase passes it, and Swift's `Mutex` on Linux (a
    // priority-inheritance futex that spins first) spent 4% of a token download's CPU there.
    private let lock = NSLock()
    private var state = State()
    private let committer: Committer

    init(committer: @escaping Committer) {
        self.committer = committer
    }

    /// Batches waiting for the next commit (a test waits on it to know its callers have queued).
    var queued: Int { lock.withLock { state.queue.count } }

    func submit(_ item: Item) throws(LedgerError) -> Outcome {
        let ticket = Ticket(item)
        var lead = lock.withLock {
            state.queue.append(ticket)
            defer { state.leading = true }
            return !state.leading
        }
        while true {
            if lead { commitQueued() }
            switch ticket.wait() {
            case .done(let result): return try result.get()
            case .promoted: lead = true
            }
        }
    }

    private func commitQueued() {
        let group = lock.withLock {
            defer { state.queue = [] }
            return state.queue
        }
        let results: [Result<Outcome, LedgerError>]
        do {
            results = try committer(group.map(\.item))
        } catch {
            results = Array(repeating: .failure(error), count: group.count)
        }
        for (ticket, result) in zip(group, results) { ticket.finish(result) }
        lock.withLock {
            if let next = state.queue.first {
                next.promote()
            } else {
                state.leading = false
            }
        }
    }

    /// One caller's item, waiting for its outcome or for its turn to lead.
    private final class Ticket: @unchecked Sendable {
        enum Event {
            case done(Result<Outcome, LedgerError>)
            case promoted
        }

        let item: Item
        private let condition = NSCondition()
        private var result: Result<Outcome, LedgerError>?
        private var promoted = false

        init(_ item: Item) {
            self.item = item
        }

        func finish(_ result: Result<Outcome, LedgerError>) {
            condition.withLock {
                self.result = result
                condition.signal()
            }
        }

        func promote() {
            condition.withLock {
                promoted = true
                condition.signal()
            }
        }

        func wait() -> Event {
            condition.withLock {
                while result == nil && !promoted { condition.wait() }
                if let result { return .done(result) }
                promoted = false
                return .promoted
            }
        }
    }
}
