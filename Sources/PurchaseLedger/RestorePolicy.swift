/// What happens when an account claims a purchase another account already holds (a restore on a second
/// account of the app, a family member on the same Apple ID).
package enum RestorePolicy: String, Sendable, CaseIterable {
    /// The purchase moves to the account that claimed it; the others lose it.
    case transfer
    /// The first account keeps it; the claim is refused.
    case keep
    /// Every account that claims it holds it.
    case share
}
