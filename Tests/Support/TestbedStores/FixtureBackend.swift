import GatewayHandlerAPI
import PurchaseVerification

/// A verification backend for tests of the content slot: the token `grant:<product>` proves a purchase of
/// that product, `other` proves none, anything else is a bad token. Registered only in the test gateway,
/// and used only by configs with a `fixture_verifier` section.
struct FixtureBackend: VerificationBackend {
    func accepts(_ credential: Credential) -> Bool {
        if case .downloadToken = credential { true } else { false }
    }

    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
        switch credential {
        case .downloadToken(let token) where token.hasPrefix("grant:"):
            let transaction = PurchaseTransaction(
                transactionId: "1000000000000001", originalTransactionId: "1000000000000001",
                productId: String(token.dropFirst(6)), webOrderLineItemId: nil, purchaseDate: nil, expiresDate: nil,
                cancellationDate: nil, quantity: 1)
            return StorePurchases(
                status: 0, environment: "Sandbox", bundleId: "com.example.fixture", transactions: [transaction])
        case .downloadToken("other"):
            return StorePurchases(status: 0, environment: "Sandbox", bundleId: "com.example.fixture", transactions: [])
        default:
            throw GatewayError.badRequest("unknown fixture token")
        }
    }
}

/// Provides ``FixtureBackend`` to loads whose config has a `fixture_verifier` section. Its credentials are
/// download tokens, so it reads nothing from bodies.
package enum FixtureVerification: VerifierProvider {
    package static let section = "fixture_verifier"
    package static let credentialMembers = ""
    package static let exampleBody = "{}"

    package static func credential(in body: PurchaseBody) throws(GatewayError) -> (any StoreCredential)? { nil }

    package static func makeBackends(_ setup: StoreSetup) throws -> [any VerificationBackend] {
        setup.isConfigured ? [FixtureBackend()] : []
    }
}
