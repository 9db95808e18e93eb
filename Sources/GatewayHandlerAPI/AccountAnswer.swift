/// What an app account got from a verify or restore-sync: its id, and the products the credential proves that
/// other accounts keep under the `keep` policy (left out of the entitlements).
public struct AccountAnswer: Sendable, Equatable {
    public let accountId: String
    public let heldByOtherAccounts: [String]

    package init(accountId: String, heldByOtherAccounts: [String]) {
        self.accountId = accountId
        self.heldByOtherAccounts = heldByOtherAccounts
    }
}
