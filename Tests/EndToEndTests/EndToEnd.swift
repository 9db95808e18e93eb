import Testing

/// Every end-to-end suite runs inside this one, one test at a time: each starts its own nginx and gateway,
/// and the timing assertions must not compete for two cores.
@Suite(.serialized, .timeLimit(.minutes(5)))
enum EndToEnd {}
