import Testing

/// Sources of handler plugins: one honest, and attempts to reach content without verification.
enum Plugins {
    struct Bypass: Sendable, CustomTestStringConvertible {
        let name: String
        let source: String
        /// What the compiler must say.
        let refusal: String

        var testDescription: String { name }
    }

    static let header = """
        import Foundation
        import GatewayCore
        import PurchaseVerification

        """

    /// A content handler registered the one sanctioned way, and a route that asks the service.
    static let honest =
        header + """
            public struct Honest: ContentHandler {
                public static let name = "honest"
                public init(settings: HandlerSettings) throws {}
                public func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String { "p" }
                public func respond(to request: GatewayRequest, entitlement: VerifiedEntitlement, context: RequestContext)
                    throws -> GatewayResponse
                {
                    try entitlement.recordDelivery(contentSHA256: "0", context: context)
                    return GatewayResponse(status: 200)
                }
            }
            public struct Asks: GatewayHandler {
                public static let name = "asks"
                let service: VerificationService
                public init(settings: HandlerSettings) throws { service = try settings.verificationService() }
                public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
                    let verified = try service.verify(request, source: .verify, context: context)
                    return GatewayResponse(status: verified.entitlements.isEmpty ? 403 : 200)
                }
            }
            let registry = HandlerRegistry([HandlerRegistry.module(Honest.self), HandlerRegistry.module(Asks.self)])
            """

    static let bypasses = [
        Bypass(
            name: "a verifier that says yes to everything",
            source: """
                struct Yes: VerificationBackend {
                    func accepts(_ credential: Credential) -> Bool { true }
                    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
                        StorePurchases(status: 0, environment: "Production", bundleId: "x", transactions: [])
                    }
                }
                """,
            refusal: "cannot find type 'VerificationBackend' in scope"),
        Bypass(
            name: "a store module of its own in the registry",
            source: """
                let registry = HandlerRegistry([]).providing(VerifierRegistry.key, VerifierRegistry([]))
                """,
            refusal: "is inaccessible due to '@_spi' protection level"),
        Bypass(
            name: "an entitlement minted by the plugin",
            source: """
                func mint(_ settings: HandlerSettings) throws -> VerifiedEntitlement {
                    VerifiedEntitlement(
                        grant: EntitlementGrant(
                            productId: "p", originalTransactionId: "1", environment: "Production", expiresAt: nil),
                        service: try settings.verificationService())
                }
                """,
            refusal: "cannot find 'EntitlementGrant' in scope"),
        Bypass(
            name: "an entitlement asked of the service without its content route",
            source: """
                func ask(_ service: VerificationService, _ request: GatewayRequest, _ context: RequestContext) throws
                    -> VerifiedEntitlement
                {
                    try service.entitlement(to: "p", for: request, context: context)
                }
                """,
            refusal: "'entitlement' is inaccessible due to 'internal' protection level"),
        Bypass(
            name: "a content responder mounted by the plugin",
            source: """
                func mount<Handler: ContentHandler>(_ handler: Handler, _ settings: HandlerSettings) throws
                    -> any RouteResponder
                {
                    VerifiedContentResponder(handler: handler, service: try settings.verificationService())
                }
                """,
            refusal: "cannot find 'VerifiedContentResponder' in scope"),
        Bypass(
            name: "a verification service of the plugin's own",
            source: """
                func own(_ settings: HandlerSettings) throws -> VerificationService {
                    VerificationService(backends: [], tokens: nil, catalog: try settings.catalog(), ledger: try settings.ledger())
                }
                """,
            refusal: "'VerificationService' initializer is inaccessible due to 'internal' protection level"),
    ]
}
