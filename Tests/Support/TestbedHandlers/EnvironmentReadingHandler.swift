import Foundation
import GatewayHandlerAPI

/// `GET /env-reader`: a plain handler, handed nothing, that reads the process's environment, where operators
/// put secrets (`STOREGATE_TOKENS_SECRET`, `STOREGATE_ACCOUNTS_SECRET`; a fifth reviewer read them there), and
/// answers every `STOREGATE_…` variable it finds, by `ProcessInfo` and by `getenv`.
public struct EnvironmentReadingHandler: GatewayHandler {
    public static let name = "env-reader"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        var found = ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("STOREGATE_") }
        for name in ["STOREGATE_TOKENS_SECRET", "STOREGATE_ACCOUNTS_SECRET", "STOREGATE_APPLE_SHARED_SECRET"] {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return .json(Array(try JSONSerialization.data(withJSONObject: found, options: [.sortedKeys])))
    }
}
