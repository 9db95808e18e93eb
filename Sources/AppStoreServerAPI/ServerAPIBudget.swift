import Synchronization

/// What the gateway may still ask of each endpoint: a token bucket of `callsPerHour` per endpoint, refilled
/// evenly over the hour, and the moment Apple's last 429 said to wait until. A call refused here never
/// reaches Apple, so the gateway does not spend Apple's hourly limit on calls Apple would refuse.
final class ServerAPIBudget: Sendable {
    private struct Account {
        var tokens: Double
        var refilledAt: ContinuousClock.Instant
        var closedUntil: ContinuousClock.Instant?
    }

    private let callsPerHour: Double
    private let accounts: Mutex<[ServerAPIEndpoint: Account]>

    init(callsPerHour: Int, now: ContinuousClock.Instant = .now) {
        self.callsPerHour = Double(callsPerHour)
        accounts = Mutex(
            Dictionary(
                uniqueKeysWithValues: ServerAPIEndpoint.allCases.map {
                    ($0, Account(tokens: Double(callsPerHour), refilledAt: now))
                }))
    }

    /// Takes one call for `endpoint`, or says how long until one is allowed.
    func take(_ endpoint: ServerAPIEndpoint, now: ContinuousClock.Instant = .now) -> Duration? {
        accounts.withLock { accounts in
            guard var account = accounts[endpoint] else { return nil }
            defer { accounts[endpoint] = account }
            if let closedUntil = account.closedUntil {
                if now < closedUntil { return now.duration(to: closedUntil) }
                account.closedUntil = nil
            }
            let elapsed = account.refilledAt.duration(to: now) / .seconds(1)
            account.tokens = min(callsPerHour, account.tokens + elapsed * callsPerHour / 3600)
            account.refilledAt = now
            guard account.tokens >= 1 else { return .seconds((1 - account.tokens) * 3600 / callsPerHour) }
            account.tokens -= 1
            return nil
        }
    }

    /// Apple said (429) not to call `endpoint` again for `pause`.
    func close(_ endpoint: ServerAPIEndpoint, for pause: Duration, now: ContinuousClock.Instant = .now) {
        accounts.withLock { accounts in
            let until = now + pause
            if let current = accounts[endpoint]?.closedUntil, current >= until { return }
            accounts[endpoint]?.closedUntil = until
        }
    }
}
