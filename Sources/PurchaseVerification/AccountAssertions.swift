import Foundation

/// Short-lived account assertions that the app's own backend signs for its logged-in user and the app sends
/// as `X-StoreGate-Account`: `base64url("1|<expiry, UNIX seconds>|<account id>") "." base64url(HMAC-SHA256)`
/// with `accounts.secret`, checked in constant time against it and `accounts.previous_secrets` (rotation).
package struct AccountAssertions: Sendable {
    private let seal: HMACSeal
    /// The longest an assertion may still have to run: one valid for longer is not short-lived, and refused.
    package let maximumLifetime: TimeInterval

    package init(secret: String, previousSecrets: [String] = [], maximumLifetime: TimeInterval) {
        seal = HMACSeal(secret: secret, previousSecrets: previousSecrets)
        self.maximumLifetime = maximumLifetime
    }

    /// An assertion that `accountId` is asking, valid for `lifetime` from `now` (what the app's backend makes).
    package func issue(accountId: String, lifetime: TimeInterval, now: Date = Date()) -> String {
        seal.seal("1|\(Int64((now.timeIntervalSince1970 + lifetime).rounded(.down)))|\(accountId)")
    }

    /// The account of a genuine assertion that has not expired and does not run longer than
    /// ``maximumLifetime``; nil for anything else.
    package func accountId(in assertion: String, now: Date = Date()) -> String? {
        guard let claims = seal.open(assertion) else { return nil }
        let fields = claims.split(separator: "|", maxSplits: 2)
        guard fields.count == 3, fields[0] == "1", let expiry = Int64(fields[1]) else { return nil }
        let remaining = TimeInterval(expiry) - now.timeIntervalSince1970
        guard remaining > 0, remaining <= maximumLifetime else { return nil }
        let account = String(fields[2])
        return AccountSettings.isAccountId(account) ? account : nil
    }
}
