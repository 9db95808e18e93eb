/// The pause before retrying an upstream that failed: full jitter over 200 ms × 2^(attempt-1), at most 2 s,
/// so gateways that failed together do not retry together.
package enum RetryBackoff {
    /// The pause after the `attempt`-th failed call (1 for the first).
    package static func pause(afterAttempt attempt: Int) -> Duration {
        let ceiling = min(200 * (1 << min(max(attempt, 1) - 1, 10)), 2_000)
        return .milliseconds(Int.random(in: (ceiling / 2)...ceiling))
    }
}
