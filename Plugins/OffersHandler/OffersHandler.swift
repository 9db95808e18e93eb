import GatewayHandlerAPI

/// `GET /v1/offers/{product_id}`: the App Store offers the asserted app account may have for an auto-renewable
/// subscription, decided from the ledger (an introductory offer only for a customer who never subscribed in its
/// group; each promotional offer by its rule in `offers`), each with the JWS StoreKit takes. 401
/// `account_required` without an account, 404 `unknown_product` for an id that is not an auto-renewable subscription
/// of the catalog.
public struct OffersHandler: GatewayHandler {
    public static let name = "offers"
    public static let servesSubpaths = true
    /// GET only: every answer signs afresh, which a HEAD would throw away.
    public static let methods: [HTTPMethod] = [.get]

    private let offers: OfferSignatures
    private let routePath: String

    public init(_ setup: HandlerSetup, needs offers: OfferSignatures) {
        self.offers = offers
        routePath = setup.routePath
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let productId = String(request.path.dropFirst(routePath.count + 1))
        guard request.path.hasPrefix(routePath + "/"), ProductId.isValid(productId) else {
            throw GatewayError.unknownProduct
        }
        let found = try offers.offers(for: productId, context: context)
        var json = JSONWriter()
        json.object { json in
            json.member("account_id", found.accountId)
            json.key("introductory_offer")
            if let introductory = found.introductory {
                json.object { json in
                    json.key("eligible")
                    json.bool(introductory.eligible)
                    json.member("signature", introductory.signature)
                }
            } else {
                json.string(nil)
            }
            json.member("product_id", found.productId)
            json.key("promotional_offers")
            json.array(found.promotional) { json, offer in
                json.object { json in
                    json.member("offer_id", offer.offerId)
                    json.member("signature", offer.signature)
                }
            }
        }
        var response = GatewayResponse.json(json.bytes, headers: [("Cache-Control", "no-store")])
        response.logMetadata = [
            "account": "\(found.accountId)", "product": "\(found.productId)", "offers": "\(found.promotional.count)",
        ]
        return response
    }
}
