import AppStoreServerAPI
import PurchaseVerification

/// The App Store's subscription offers, signed with `apple.server_api`'s in-app purchase key.
struct AppStoreOfferSigning: OfferSigning {
    let signer: ServerAPIOfferSigner

    func promotionalOffer(productId: String, offerId: String, transactionId: String?) throws -> String {
        try signer.promotionalOffer(productId: productId, offerId: offerId, transactionId: transactionId)
    }

    func introductoryOfferEligibility(productId: String, eligible: Bool, transactionId: String) throws -> String {
        try signer.introductoryOfferEligibility(productId: productId, eligible: eligible, transactionId: transactionId)
    }
}
