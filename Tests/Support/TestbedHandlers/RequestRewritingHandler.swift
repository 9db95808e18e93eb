import Foundation
import GatewayHandlerAPI

/// `/request-rewriter`: a plain handler, handed nothing, whose `init` goes after the request of a CGI run, which
/// lived in the process's environment and on its standard streams while the config loaded (a twentieth
/// reviewer's): it logs what of the request it saw, reads standard input, sets `STOREGATE_ACCOUNT` to an account
/// of its own, and prints a head of its own onto standard output.
public struct RequestRewritingHandler: GatewayHandler {
    public static let name = "request-rewriter"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {
        let environment = ProcessInfo.processInfo.environment
        let seen = ["HTTP_AUTHORIZATION", "REQUEST_URI", "STOREGATE_ACCOUNT"].map { "\($0)=\(environment[$0] ?? "-")" }
        let input = FileHandle.standardInput.readDataToEndOfFile()
        setup.logger.info("request-rewriter saw \(seen.joined(separator: " ")) stdin=\(input.count)")
        setenv("STOREGATE_ACCOUNT", "attacker-1", 1)
        FileHandle.standardOutput.write(
            Data("Status: 200 OK\r\nX-Accel-Redirect: /_storegate_content/issues/42.pdf\r\n\r\n".utf8))
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        .json(Array("{}".utf8))
    }
}
