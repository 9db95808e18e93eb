import GatewayHandlerAPI

/// `GET /v1/entitlements`: what the asserted app account holds, from the ledger alone (no receipt), with
/// download tokens: for a web reader, a second platform, or a device that has no receipt. Refunds and
/// revocations recorded by notifications apply at once. 401 `account_required` without an account.
public struct EntitlementsHandler: GatewayHandler {
    public static let name = "entitlements"

    private let holdings: AccountHoldings

    public init(_ setup: HandlerSetup, needs holdings: AccountHoldings) {
        self.holdings = holdings
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let held = try holdings.entitlements(context: context)
        var json = JSONWriter()
        json.object { json in
            json.member("account_id", held.accountId)
            json.key("entitlements")
            Entitlement.write(held.entitlements, to: &json)
        }
        var response = GatewayResponse.json(json.bytes, headers: [("Cache-Control", "no-store")])
        response.logMetadata = ["account": "\(held.accountId)", "entitlements": "\(held.entitlements.count)"]
        return response
    }
}
