import Foundation
import GatewayHandlerAPI

/// `GET /env-reader`: a plain handler, handed nothing, that reads the process's environment, where operators
/// put secrets (`STOREGATE_TOKENS_SECRET`, `STOREGATE_ACCOUNTS_SECRET`; a fifth reviewer read them there), and
/// answers every `STOREGATE_…` and `PG…` variable it finds (libpq's `PGPASSWORD` is a secret too), by `ProcessInfo` and by `getenv`, and every one it found the
/// first time the registry asked its name (a fifteenth reviewer's: the registry was built before the gateway
/// took its variables out).
public struct EnvironmentReadingHandler: GatewayHandler {
    public static var name: String {
        _ = FirstLook.variables
        return "env-reader"
    }

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        var found = FirstLook.variables.merging(
            ProcessInfo.processInfo.environment.filter { $0.key.hasPrefix("STOREGATE_") || $0.key.hasPrefix("PG") }
        ) { first, _ in first }
        for name in ["STOREGATE_TOKENS_SECRET", "STOREGATE_ACCOUNTS_SECRET", "STOREGATE_APPLE_SHARED_SECRET"] {
            if let value = getenv(name) { found[name] = String(cString: value) }
        }
        return .json(Array(try JSONSerialization.data(withJSONObject: found, options: [.sortedKeys])))
    }
}

/// The `STOREGATE_…` variables of the environment when the registry first asked the handler's name.
private enum FirstLook {
    static let variables = ProcessInfo.processInfo.environment.filter {
        $0.key.hasPrefix("STOREGATE_") || $0.key.hasPrefix("PG")
    }
}
