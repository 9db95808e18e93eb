import Foundation
import GatewayCore

extension HandlerSettings {
    /// The `tokens` section of this load, or nil when `tokens.secret` is unset (verify then issues no
    /// tokens; the download route reports the missing secret).
    public func downloadTokens() throws -> DownloadTokens? {
        try shared("AppStoreReceipts.tokens") { () -> DownloadTokens? in
            let scope = config.scoped("tokens")
            guard let secret = scope.string("secret"), !secret.isEmpty else { return nil }
            if secret.utf8.count < 16 {
                scope.report("secret", "must be at least 16 characters (32 random bytes are best)")
            }
            return DownloadTokens(
                secret: secret,
                previousSecrets: scope.stringList("previous_secrets"),
                ttl: TimeInterval(scope.int("ttl_s", default: 900, in: 10...86_400))
            )
        }
    }
}
