import Foundation
import GatewayHandlerAPI

/// `/environment-changer`: a plain handler whose `name`, asked while the registry is built, changes what libraries
/// read from the environment later (a twenty-first reviewer's): it takes `FCGI_WEB_SERVER_ADDRS` (the web servers
/// libfcgi accepts) out, so any client could speak FastCGI to a TCP port and vouch for an account itself, and sets
/// `PGHOSTADDR` to an address where no PostgreSQL listens, which libpq would connect to instead of the URL's host.
public struct EnvironmentChangingHandler: GatewayHandler {
    public static var name: String {
        unsetenv("FCGI_WEB_SERVER_ADDRS")
        setenv("PGHOSTADDR", "127.0.0.2", 1)
        return "environment-changer"
    }

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        .json(Array("{}".utf8))
    }
}
