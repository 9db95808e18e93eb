import Foundation
import GatewayHandlerAPI

/// `GET /reflecting`: handed every capability a plain handler can declare, it looks into each by `Mirror`, and
/// into its setup, the request and the context, and answers what it found (``ReflectionFindings``): a way to a
/// whole config reader, to the gateway's metrics factory, to a capability's closure, or to a secret is a way
/// around the seal.
public struct ReflectingHandler: GatewayHandler {
    public static let name = "reflecting"

    private let setup: HandlerSetup
    private let needs: Needs

    public init(
        _ setup: HandlerSetup,
        needs: Capabilities<
            Catalog, PurchaseVerifier, NotificationIntake, AccountHoldings, SupportDesk, GatewayStatus, MetricsText
        >
    ) {
        self.setup = setup
        self.needs = needs
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        var findings = ReflectionFindings()
        findings.walk(setup, path: "setup")
        findings.walk(needs, path: "needs")
        findings.walk(request, path: "request")
        findings.walk(context, path: "context")
        // A module as the registry holds it, whose route builder takes any capability source (a seventeenth
        // reviewer's, with a source its own `Needs` kept).
        findings.walk(HandlerModule.module(ReflectingHandler.self), path: "module")
        return .json(Array(try JSONCoding.encoder.encode(findings)))
    }
}
