import GatewayCore
import Synchronization

/// Token buckets per client address: each client may make `burst` requests at once and `perSecond` a second
/// on average. Memory stays bounded: past `maxClients` tracked addresses, clients whose bucket has refilled
/// are forgotten (they would start full anyway), and if more than half remain, the fullest of them until half
/// do, so the clients being limited are the last to be forgiven. Each clean-up leaves room for at least
/// `maxClients / 2` new clients, so its cost is spread over that many requests.
package final class ClientRateLimiter: Sendable {
    package let perSecond: Double
    package let burst: Double
    private let maxClients: Int
    private let buckets = Mutex<[String: Bucket]>([:])

    private struct Bucket {
        var tokens: Double
        var updated: ContinuousClock.Instant
    }

    package init(perSecond: Double, burst: Int, maxClients: Int = 100_000) {
        self.perSecond = perSecond
        self.burst = Double(max(burst, 1))
        self.maxClients = maxClients
    }

    /// Takes one token for `client`; returns nil when admitted, else the seconds until a token is back.
    package func admit(_ client: String, now: ContinuousClock.Instant = .now) -> Int? {
        buckets.withLock { buckets in
            var bucket = buckets[client] ?? Bucket(tokens: burst, updated: now)
            bucket.tokens = min(burst, bucket.tokens + perSecond * Self.seconds(now - bucket.updated))
            bucket.updated = now
            defer {
                if buckets.count > maxClients { forgetRefilled(&buckets, now: now) }
            }
            guard bucket.tokens >= 1 else {
                buckets[client] = bucket
                return max(1, Int(((1 - bucket.tokens) / perSecond).rounded(.up)))
            }
            bucket.tokens -= 1
            buckets[client] = bucket
            return nil
        }
    }

    /// Client addresses with a bucket in memory.
    var trackedClients: Int { buckets.withLock { $0.count } }

    private func forgetRefilled(_ buckets: inout [String: Bucket], now: ContinuousClock.Instant) {
        let tokens = buckets.mapValues { min(burst, $0.tokens + perSecond * Self.seconds(now - $0.updated)) }
        buckets = buckets.filter { tokens[$0.key, default: burst] < burst }
        guard buckets.count > maxClients / 2 else { return }
        let emptiest = Set(
            buckets.keys.sorted { tokens[$0, default: 0] < tokens[$1, default: 0] }.prefix(maxClients / 2))
        buckets = buckets.filter { emptiest.contains($0.key) }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
