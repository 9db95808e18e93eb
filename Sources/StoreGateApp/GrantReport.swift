import Foundation
import PurchaseLedger

/// How the grant commands print a grant: one line for a person, or JSON for scripts.
enum GrantReport {
    static func line(_ grant: FreeGrant) -> String {
        var parts = [grant.id, grant.productId, recipient(grant), grant.environment]
        parts.append("given \(stamp(grant.grantedAt)) by \(grant.grantedBy): \(grant.reason)")
        if let expires = grant.expiresAt { parts.append("until \(stamp(expires))") }
        if let revoked = grant.revokedAt {
            parts.append("revoked \(stamp(revoked)) by \(grant.revokedBy ?? ""): \(grant.revokeReason ?? "")")
        }
        return parts.joined(separator: " · ")
    }

    static func json(_ grants: [FreeGrant]) -> String {
        let objects = grants.map { grant -> [String: Any] in
            [
                "id": grant.id, "product_id": grant.productId, "environment": grant.environment,
                "account_id": grant.accountId ?? NSNull(),
                "customer_original_transaction_id": grant.customerOriginalTransactionId ?? NSNull(),
                "reason": grant.reason, "granted_by": grant.grantedBy, "granted_at": stamp(grant.grantedAt),
                "expires_at": grant.expiresAt.map(stamp) ?? NSNull(),
                "revoked_at": grant.revokedAt.map(stamp) ?? NSNull(),
                "revoked_by": grant.revokedBy ?? NSNull(), "revoke_reason": grant.revokeReason ?? NSNull(),
            ]
        }
        let data = try? JSONSerialization.data(
            withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    private static func recipient(_ grant: FreeGrant) -> String {
        if let account = grant.accountId { return "to account \(account)" }
        return "with purchase \(grant.customerOriginalTransactionId ?? "")"
    }

    private static func stamp(_ date: Date) -> String { date.formatted(.iso8601) }
}
