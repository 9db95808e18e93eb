import Foundation
import GatewayHandlerAPI
import PurchaseLedger

/// Products given away by an operator (`storegate grant`): press copies, promos, goodwill replacements. A grant
/// goes to an app account (the entitlements route lists it, with a download token) or to a customer named by
/// one of their purchases (a verify or restore-sync of that purchase brings it), until it expires or is
/// revoked. Recorded in the ledger as their own source, so nobody writes a handler to give things away.
package struct FreeGrants: Sendable {
    /// Who a grant is for.
    package enum Recipient: Sendable, Equatable {
        /// An app account (the config's `accounts` section must be set, or no request could be for it).
        case account(String)
        /// The customer who made a purchase, by its original transaction id.
        case customer(originalTransactionId: String)
    }

    /// Why a grant cannot be made or revoked, in words for the operator.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    private let ledger: any PurchaseLedger
    private let catalog: Catalog
    /// Whether requests can be for an app account in this config (`accounts`).
    private let accountsConfigured: Bool

    package init(ledger: any PurchaseLedger, catalog: Catalog, accountsConfigured: Bool) {
        self.ledger = ledger
        self.catalog = catalog
        self.accountsConfigured = accountsConfigured
    }

    /// Gives `productId` to `recipient` for `reason`, recorded as given by `grantedBy` (and by command
    /// `requestId`), until `expires` if set. A customer's purchase decides the environment, unless it is in the
    /// ledger in several and `environment` says which.
    package func grant(
        _ productId: String, to recipient: Recipient, environment: String? = nil, reason: String, grantedBy: String,
        expires: Date? = nil, requestId: String, now: Date = Date()
    ) throws -> FreeGrant {
        guard catalog.product(id: productId) != nil else {
            throw Problem(description: "the catalog has no product \(productId)")
        }
        if let expires, expires <= now {
            throw Problem(description: "the expiry \(expires.formatted(.iso8601)) has passed")
        }
        var account: String?
        var customer: String?
        var chosen = environment ?? "Production"
        switch recipient {
        case .account(let id):
            guard accountsConfigured else {
                throw Problem(
                    description: "the config has no accounts section, so no request can be for an app account; "
                        + "give it to a customer (--customer) instead")
            }
            guard AccountSettings.isAccountId(id) else {
                throw Problem(description: "an account id is 1 to 128 visible ASCII characters without | or ,")
            }
            account = id
        case .customer(let original):
            let found = try ledger.originals(of: original).filter {
                $0.originalTransactionId == original && (environment == nil || $0.environment == environment)
            }
            guard let purchase = found.first else {
                throw Problem(
                    description: "the ledger holds no purchase \(original)"
                        + (environment.map { " in \($0)" } ?? "")
                        + " (give the original transaction id of one of the customer's purchases)")
            }
            guard found.count == 1 else {
                let places = found.map(\.environment).joined(separator: " and ")
                throw Problem(
                    description: "purchase \(original) is in the ledger in \(places): say which with --environment")
            }
            customer = original
            chosen = purchase.environment
        }
        let grant = FreeGrant(
            id: Self.newId(), environment: chosen, productId: productId, accountId: account,
            customerOriginalTransactionId: customer, reason: reason, grantedBy: grantedBy, grantedAt: now,
            expiresAt: expires, requestId: requestId)
        try ledger.recordGrant(grant)
        return grant
    }

    /// Revokes grant `id` (its entitlement, tokens and downloads stop at once) and returns it as it stands, and
    /// whether this call revoked it (a grant revoked before is returned as it was).
    package func revoke(_ id: String, revokedBy: String, reason: String, now: Date = Date()) throws
        -> (grant: FreeGrant, revokedNow: Bool)
    {
        guard let before = try ledger.freeGrants(.id(id)).first else {
            throw Problem(description: "no free grant has the id \(id)")
        }
        guard before.revokedAt == nil else { return (before, false) }
        let after = try ledger.revokeGrant(id, by: revokedBy, reason: reason, at: now)
        return (after ?? before, true)
    }

    /// The grants that entitle at `now`, or every one with `all`, newest first.
    package func list(all: Bool, now: Date = Date()) throws -> [FreeGrant] {
        try ledger.freeGrants(all ? .all : .active(at: now)).sorted { $0.grantedAt > $1.grantedAt }
    }

    /// A new grant id: `grant-` and 16 random hex digits.
    static func newId() -> String {
        var generator = SystemRandomNumberGenerator()
        let bits = UInt64.random(in: .min ... .max, using: &generator)
        let hex = String(bits, radix: 16)
        return "grant-" + String(repeating: "0", count: 16 - hex.count) + hex
    }
}
