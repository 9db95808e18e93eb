/// What a backend did with a consumption request.
package enum ConsumptionReply: Sendable, Equatable {
    /// The store accepted `answer` (the body sent); `outcome` is its verdict.
    case answered(answer: String, outcome: String)
    /// Settled without an answer, for good (no customer consent, the store refused it); `reason` says why.
    case unanswered(reason: String)
}
