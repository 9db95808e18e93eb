extension Duration {
    /// The whole duration in nanoseconds (NIO, Foundation and swift-metrics count in them).
    public var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
