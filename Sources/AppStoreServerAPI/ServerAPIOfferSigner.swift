import Foundation
import JWTKit

/// Signs the App Store's subscription offers for StoreKit with the in-app purchase key, per Apple's "Generating
/// JWS to sign App Store requests": ES256, header `kid` and `typ: JWT`; claims `iss`, `bid`, `aud` (the kind of
/// request), `iat`, a fresh `nonce`, and the request's own. Signed by jwt-kit, as the API's tokens are.
package struct ServerAPIOfferSigner: Sendable {
    private let credentials: ServerAPICredentials

    package init(credentials: ServerAPICredentials) {
        self.credentials = credentials
    }

    /// A promotional offer (`aud: promotional-offer`): `productId`, `offerIdentifier`, and `transactionId` when
    /// the customer is known.
    package func promotionalOffer(productId: String, offerId: String, transactionId: String?, now: Date = Date())
        throws(ServerAPIFailure) -> String
    {
        try sign(
            PromotionalOfferClaims(
                iss: credentials.issuerId, bid: credentials.bundleId, aud: "promotional-offer", iat: issued(now),
                nonce: nonce(), productId: productId, offerIdentifier: offerId, transactionId: transactionId))
    }

    /// An introductory offer's eligibility (`aud: introductory-offer-eligibility`): `productId`,
    /// `allowIntroductoryOffer`, `transactionId`.
    package func introductoryOfferEligibility(
        productId: String, eligible: Bool, transactionId: String, now: Date = Date()
    ) throws(ServerAPIFailure) -> String {
        try sign(
            IntroductoryOfferClaims(
                iss: credentials.issuerId, bid: credentials.bundleId, aud: "introductory-offer-eligibility",
                iat: issued(now), nonce: nonce(), productId: productId, allowIntroductoryOffer: eligible,
                transactionId: transactionId))
    }

    /// Whole seconds, as Apple's library sends them.
    private func issued(_ now: Date) -> IssuedAtClaim {
        IssuedAtClaim(value: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)))
    }

    /// A fresh UUID in lowercase, as Apple's library makes it: StoreKit refuses a signature seen before.
    private func nonce() -> String { UUID().uuidString.lowercased() }

    private func sign(_ claims: some JWTPayload) throws(ServerAPIFailure) -> String {
        try credentials.signed(claims)
    }

    /// A promotional offer's claims; `transactionId` is left out when nil.
    struct PromotionalOfferClaims: JWTPayload {
        let iss: String
        let bid: String
        let aud: String
        let iat: IssuedAtClaim
        let nonce: String
        let productId: String
        let offerIdentifier: String
        let transactionId: String?

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }

    /// An introductory offer eligibility's claims.
    struct IntroductoryOfferClaims: JWTPayload {
        let iss: String
        let bid: String
        let aud: String
        let iat: IssuedAtClaim
        let nonce: String
        let productId: String
        let allowIntroductoryOffer: Bool
        let transactionId: String

        func verify(using algorithm: some JWTAlgorithm) throws {}
    }
}
