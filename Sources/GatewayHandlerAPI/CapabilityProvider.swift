/// What the gateway's composition root implements for each load: every capability a handler can declare,
/// built once per load and only when some route declares it. Not visible to handler modules.
package protocol CapabilityProvider: Sendable {
    func catalog() throws -> Catalog
    func purchaseVerifier() throws -> PurchaseVerifier
    func notificationIntake() throws -> NotificationIntake
    func accountHoldings() throws -> AccountHoldings
    func offerSignatures() throws -> OfferSignatures
    func supportDesk() throws -> SupportDesk
    func gatewayStatus() throws -> GatewayStatus
    func metricsText() throws -> MetricsText
    /// The verification in front of content routes; only ``HandlerModule`` asks for it, for a content handler.
    /// With `tokensRequiredBy`, a load without download tokens is refused, naming that handler's route.
    func contentGate(tokensRequiredBy handler: String?) throws -> any ContentGate
}
