import CoreMetrics
import Foundation
import GatewayHandlerAPI
import PurchaseLedger

extension AccountSettings {
    /// The `accounts` section, problems reported at their key paths; claims counted through `metricsFactory`.
    package init(section scope: ConfigReader, metricsFactory: any MetricsFactory) {
        let sources = scope.stringList("asserted_by")
        for source in sources where source != "web-server" && source != "signed" {
            scope.report("asserted_by", "lists web-server and/or signed, not \"\(source)\"")
        }
        if sources.isEmpty { scope.report("asserted_by", "is required: web-server, signed, or both") }
        var assertions: AccountAssertions?
        if sources.contains("signed") {
            let secret = scope.requiredString("secret", why: "is required when asserted_by lists signed") ?? ""
            if !secret.isEmpty, secret.utf8.count < 16 {
                scope.report("secret", "must be at least 16 characters (32 random bytes are best)")
            }
            assertions = AccountAssertions(
                secret: secret, previousSecrets: scope.stringList("previous_secrets"),
                maximumLifetime: TimeInterval(scope.int("max_assertion_lifetime_s", default: 900, in: 10...86_400)))
        }
        let policy = scope.choice("restore_policy", default: RestorePolicy.transfer)
        let byType = scope.scoped("restore_policy_by_type")
        var kindPolicies: [Product.Kind: RestorePolicy] = [:]
        for kind in Product.Kind.allCases { kindPolicies[kind] = byType.choice(kind.rawValue) }
        self.init(
            trustsWebServer: sources.contains("web-server"), assertions: assertions, policy: policy,
            sandboxPolicy: scope.choice("sandbox_restore_policy"), kindPolicies: kindPolicies,
            claims: AccountClaimCounters(factory: metricsFactory))
    }
}
