import Crypto
import Foundation
import GatewayHandlerAPI

/// The runtime's current exchange, reached by its symbol as a fourth reviewer's outside package reached it
/// (the registry now refuses a mangled name of this package in any source a handler module reaches; this test
/// handler is not checked by it, so that the defence behind that refusal is tested too).
@_silgen_name("$s11GatewayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ")
private func currentExchange() -> AnyObject?

/// `GET /exchange-mirror`: a plain handler, handed nothing, that walks by `Mirror` from the exchange being
/// answered, which holds the whole loaded application (routes, services, the keys of tokens and assertions), and
/// answers what it found (``ReflectionFindings``) and how many keyed HMACs it met.
public struct ExchangeMirroringHandler: GatewayHandler {
    public static let name = "exchange-mirror"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        guard let exchange = currentExchange() else { return GatewayResponse(status: 404) }
        var findings = ReflectionFindings()
        findings.walk(exchange, path: "exchange")
        return .json(Array(try JSONCoding.encoder.encode(findings)))
    }
}
