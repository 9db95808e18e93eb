extension Duration {
    /// The whole duration in nanoseconds (NIO and Foundation APIs count in them).
    var nanoseconds: Int64 {
        components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000
    }
}
