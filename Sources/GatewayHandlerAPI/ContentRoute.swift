/// A content handler behind the load's verification: names the product, has the request's credential checked
/// for it, and hands the handler the entitlement. The only way a content handler becomes a route.
struct ContentRoute<Handler: ContentHandler>: RouteResponder, CustomReflectable {
    let handler: Handler
    let gate: any ContentGate

    /// Nothing: the gate holds the load's stores, tokens and ledger.
    var customMirror: Mirror { Mirror(self, children: [:]) }

    func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let productId = try handler.requestedProduct(in: request, context: context)
        let grant = try gate.grant(productId, for: request, context: context)
        return try handler.respond(
            to: request, entitlement: VerifiedEntitlement(grant: grant, gate: gate, request: request, context: context),
            context: context)
    }
}
