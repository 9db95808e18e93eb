import GatewayHandlerAPI
import PurchaseLedger

/// Who may tell the gateway which app account a request is for, and what happens when two accounts meet over
/// one purchase (config `accounts`). Without the section no request has an account: today's behaviour.
package struct AccountSettings: Sendable {
    /// Whether `STOREGATE_ACCOUNT` from the web server is believed (`asserted_by` includes `web-server`).
    let trustsWebServer: Bool
    /// Set when `asserted_by` includes `signed`.
    let assertions: AccountAssertions?
    let policy: RestorePolicy
    let sandboxPolicy: RestorePolicy
    let kindPolicies: [Product.Kind: RestorePolicy]
    /// Counts claims settled for requests; nil in tests that make settings by hand.
    let claims: AccountClaimCounters?

    /// The header a signed assertion arrives in.
    static let assertionHeader = "X-StoreGate-Account"

    package init(
        trustsWebServer: Bool, assertions: AccountAssertions?, policy: RestorePolicy,
        sandboxPolicy: RestorePolicy? = nil, kindPolicies: [Product.Kind: RestorePolicy] = [:],
        claims: AccountClaimCounters? = nil
    ) {
        self.trustsWebServer = trustsWebServer
        self.assertions = assertions
        self.policy = policy
        self.sandboxPolicy = sandboxPolicy ?? policy
        self.kindPolicies = kindPolicies
        self.claims = claims
    }

    /// The account `request` is for, if something this deployment trusts says so: a signed assertion (401
    /// `account_assertion_invalid` when forged, expired or too long-lived), else the web server's parameter.
    package func account(of request: GatewayRequest) throws(GatewayError) -> String? {
        if let assertions, let assertion = request.header(Self.assertionHeader) {
            guard let account = assertions.accountId(in: assertion) else { throw .accountAssertionInvalid }
            return account
        }
        guard trustsWebServer, let account = request.webServerAccount else { return nil }
        guard Self.isAccountId(account) else {
            throw .badRequest("The web server passed an account id this gateway cannot use.")
        }
        return account
    }

    /// The policy for a claim to a purchase of `kind` (nil: not in the catalog) in `environment`: the product
    /// type's own, else the sandbox's for sandbox purchases, else the deployment's.
    func policy(environment: String, kind: Product.Kind?) -> RestorePolicy {
        if let kind, let policy = kindPolicies[kind] { return policy }
        return environment == "Production" ? policy : sandboxPolicy
    }

    /// 1 to 128 visible ASCII characters without `|` and `,` (the ledger's separators); the app's own id, or
    /// the UUID it passes to StoreKit as `appAccountToken`.
    package static func isAccountId(_ text: String) -> Bool {
        let bytes = text.utf8
        return (1...128).contains(bytes.count)
            && bytes.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "|") && $0 != UInt8(ascii: ",") }
    }
}
