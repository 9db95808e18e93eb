extension Duration {
    /// The whole duration in nanoseconds (NIO, Foundation and swift-metrics count in them).
    package var nanoseconds: Int64 {
        // `components` divides a 128-bit count: read it once.
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
