/// Every event type the ledger writes (docs/API.md, Events), so a config naming another is caught at load.
package enum EventType: String, Sendable, CaseIterable {
    case purchaseRecorded = "purchase.recorded"
    case purchaseRenewed = "purchase.renewed"
    case purchaseRevoked = "purchase.revoked"
    case purchasePartiallyRevoked = "purchase.partially_revoked"
    case purchaseReinstated = "purchase.reinstated"
    case purchaseExpired = "purchase.expired"
    case bindingChanged = "account.binding_changed"
    case contentDelivered = "content.delivered"
    case refundRequestAnswered = "refund_request.answered"
    case refundRequestUnanswered = "refund_request.unanswered"
    case followUpDone = "store_follow_up.done"
    case followUpAbandoned = "store_follow_up.abandoned"
}
