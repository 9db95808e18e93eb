/// One subscription's state from Get All Subscription Statuses, its signed values verified.
public struct ServerAPISubscriptionStatus: Sendable {
    public let groupId: String
    /// Apple's status: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public let status: Int
    public let transaction: ServerAPISigned
    public let renewal: ServerAPISigned?
}
