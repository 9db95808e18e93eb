/// A store that signs its subscription offers for the app (the App Store, with the in-app purchase key): the
/// gateway decides who may have an offer, the store module makes the signature StoreKit checks.
package protocol OfferSigning: Sendable {
    /// A promotional offer's signature for `productId`, naming the customer by `transactionId` when known.
    func promotionalOffer(productId: String, offerId: String, transactionId: String?) throws -> String
    /// An introductory-offer eligibility signature for `productId` and the customer of `transactionId`.
    func introductoryOfferEligibility(productId: String, eligible: Bool, transactionId: String) throws -> String
}
