import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

/// When a request arrived: as a clock instant (for its deadline) and as monotonic nanoseconds, so the time
/// it took is a subtraction when it finishes. Measuring a `Duration` instead divides a 128-bit count, which
/// cost more than the rest of finishing a request.
package struct ArrivalTime: Sendable {
    package let instant: ContinuousClock.Instant
    let nanoseconds: Int

    /// Now.
    package static var now: ArrivalTime {
        ArrivalTime(instant: .now, nanoseconds: monotonicNanoseconds())
    }

    /// The nanoseconds since the request arrived.
    var elapsedNanoseconds: Int { Self.monotonicNanoseconds() - nanoseconds }

    private static func monotonicNanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}
