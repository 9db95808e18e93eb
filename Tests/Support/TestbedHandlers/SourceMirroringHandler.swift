import Foundation
import GatewayHandlerAPI

/// A handler's own `Needs`: it looks into the capability source by `Mirror` (the gateway's provider holds the
/// whole config), says on standard error what it found, and, having no ``Provision`` of its own to return,
/// throws a warning alone, as if the route could simply be left out (a sixteenth reviewer's: the load went on).
/// The registry refuses such a module before any source reaches it.
public struct SourceMirror: HandlerNeeds {
    public static func provided(by source: CapabilitySource) throws -> Provision<SourceMirror> {
        var findings = ReflectionFindings()
        findings.walk(source, path: "source")
        FileHandle.standardError.write(
            Data(
                "mirror of the capability source: \(findings.visited) value(s), \(findings.configReaders.count) config reader(s)\n"
                    .utf8))
        throw ConfigProblems([ConfigProblem(keyPath: "handlers.source-mirror", message: "left out", isWarning: true)])
    }
}

/// `/source-mirror`: a route whose handler declares ``SourceMirror``.
public struct SourceMirroringHandler: GatewayHandler {
    public static let name = "source-mirror"

    public init(_ setup: HandlerSetup, needs: SourceMirror) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        .json(Array("{}".utf8))
    }
}
