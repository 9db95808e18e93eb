import GatewayHandlerAPI
import GooglePlayAPI
import PurchaseVerification

/// Google Play's verification backend, configured by the `google` section: purchase tokens checked with the
/// Play Developer API as the section's service account.
package enum GooglePlayVerification: VerifierProvider {
    package static let section = "google"
    package static let credentialMembers = GooglePlayCredential.members
    package static let exampleBody = GooglePlayCredential.exampleBody

    package static func credential(in body: PurchaseBody) throws(GatewayError) -> (any StoreCredential)? {
        try GooglePlayCredential(body: body)
    }

    package static func makeBackends(_ setup: StoreSetup) throws -> [any VerificationBackend] {
        guard setup.isConfigured else { return [] }
        setup.declare(ErrorCode.googlePlay)
        guard let settings = GooglePlaySettings(setup.section) else { return [] }
        return [
            GooglePlayBackend(
                client: GooglePlayClient(settings: settings.api, metricsFactory: setup.metricsFactory),
                settings: settings, catalog: setup.catalog, refundRequests: setup.refundRequests,
                metricsFactory: setup.metricsFactory)
        ]
    }
}
