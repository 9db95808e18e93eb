import Synchronization

/// What the gateway may still ask of a store's API: a token bucket of `calls` per `window` for each bucket (an
/// endpoint of Apple's, Google's quota bucket), refilled evenly over the window, and the moment the store's
/// last 429 said to wait until. A call refused here never reaches the store, so the gateway does not spend
/// the store's limits on calls the store would refuse.
package final class CallBudget<Bucket: Hashable & CaseIterable & Sendable>: Sendable {
    private struct Account {
        var tokens: Double
        var refilledAt: ContinuousClock.Instant
        var closedUntil: ContinuousClock.Instant?
    }

    private let calls: Double
    private let window: Duration
    private let accounts: Mutex<[Bucket: Account]>

    package init(calls: Int, per window: Duration, now: ContinuousClock.Instant = .now) {
        self.calls = Double(calls)
        self.window = window
        accounts = Mutex(
            Dictionary(
                uniqueKeysWithValues: Bucket.allCases.map { ($0, Account(tokens: Double(calls), refilledAt: now)) }))
    }

    /// Takes one call from `bucket`, or says how long until one is allowed.
    package func take(_ bucket: Bucket, now: ContinuousClock.Instant = .now) -> Duration? {
        accounts.withLock { accounts in
            guard var account = accounts[bucket] else { return nil }
            defer { accounts[bucket] = account }
            if let closedUntil = account.closedUntil {
                if now < closedUntil { return now.duration(to: closedUntil) }
                account.closedUntil = nil
            }
            let elapsed = account.refilledAt.duration(to: now) / window
            account.tokens = min(calls, account.tokens + elapsed * calls)
            account.refilledAt = now
            guard account.tokens >= 1 else { return window * ((1 - account.tokens) / calls) }
            account.tokens -= 1
            return nil
        }
    }

    /// The store said (429) not to call `bucket` again for `pause`.
    package func close(_ bucket: Bucket, for pause: Duration, now: ContinuousClock.Instant = .now) {
        accounts.withLock { accounts in
            let until = now + pause
            if let current = accounts[bucket]?.closedUntil, current >= until { return }
            accounts[bucket]?.closedUntil = until
        }
    }
}
