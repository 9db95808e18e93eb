/// What an app account holds now, from the ledger alone.
public struct AccountEntitlements: Sendable {
    public let accountId: String
    /// By product id; a product held in both environments is answered once, from Production.
    public let entitlements: [Entitlement]

    package init(accountId: String, entitlements: [Entitlement]) {
        self.accountId = accountId
        self.entitlements = entitlements
    }
}
