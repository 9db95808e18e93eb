/// One subscription's state from Get All Subscription Statuses, its signed values verified.
package struct ServerAPISubscriptionStatus: Sendable {
    package let groupId: String
    /// Apple's status: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    package let status: Int
    package let transaction: ServerAPISigned
    package let renewal: ServerAPISigned?
}
