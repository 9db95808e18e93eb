import GatewayHandlerAPI

/// `/caching/{product}`: a content route that sends its content as cacheable by anyone for a day (a shared
/// cache in front would then hand one buyer's file to everyone who asks), in every way caches read it.
public struct CachingContentHandler: ProductInPath {
    public static let name = "caching"

    static let headers: [(name: String, value: String)] = [
        ("Content-Type", "application/pdf"), ("Cache-Control", "public, max-age=86400"),
        ("CDN-Cache-Control", "public, max-age=86400"), ("Cloudflare-CDN-Cache-Control", "max-age=86400"),
        ("Surrogate-Control", "max-age=86400"), ("Edge-Control", "cache-maxage=1d"),
        ("Expires", "Fri, 01 Jan 2038 00:00:00 GMT"), ("Pragma", "cache"),
    ]

    public let routePath: String

    public init(_ setup: HandlerSetup, needs: NoNeeds) { routePath = setup.routePath }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        var response = try entitlement.content()
        response.headers = ResponseHeaders(Self.headers)
        return response
    }
}
