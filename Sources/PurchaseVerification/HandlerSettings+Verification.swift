import Foundation
import GatewayCore
import ProductCatalog
import PurchaseLedger

extension HandlerSettings {
    /// The verification service of this load, built once from the binary's ``VerifierRegistry`` (each store
    /// module reads its own config section), the catalog, the ledger and the `tokens` section.
    public func verificationService() throws -> VerificationService {
        try shared(VerificationService.key, make: makeVerificationService)
    }

    private func makeVerificationService() throws -> VerificationService {
        let providers = provided(VerifierRegistry.key)?.providers ?? []
        let backends = try providers.flatMap { provider in try provider.makeBackends(settings: self) }
        let catalog = try catalog()
        let ledger = try ledger()
        let tokens = try downloadTokens()
        guard !backends.isEmpty else {
            let sections = providers.map { $0.section }
            config.report(
                sections.first ?? "routes",
                "is required: a route verifies purchases, and this build verifies them with: "
                    + (sections.isEmpty ? "nothing" : sections.joined(separator: ", ")))
            throw ConfigProblems([])
        }
        metrics.declare(ErrorCode.verification)
        return VerificationService(
            backends: backends, tokens: tokens, catalog: catalog, ledger: ledger, accounts: try accountSettings())
    }

    /// The verification service of this load if a route built one, without building it.
    public var builtVerificationService: VerificationService? { existing(VerificationService.key) }

    /// The `tokens` section of this load, or nil when `tokens.secret` is unset (verify then issues no
    /// tokens; the download route reports the missing secret).
    public func downloadTokens() throws -> DownloadTokens? {
        try shared(Self.tokensKey) { () -> DownloadTokens? in
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

    private static let tokensKey = SharedKey<DownloadTokens?>("PurchaseVerification.tokens")
}

extension GatewayApplication {
    /// The verification service a route of this load built, if any.
    public var verificationService: VerificationService? { existing(VerificationService.key) }
}
