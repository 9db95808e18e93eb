import Foundation
import GatewayHandlerAPI
import InMemoryTracing
import Instrumentation

/// The tracer ``TracingHandler`` installs for the whole process.
let processTracer = InMemoryTracer()

/// Installs ``processTracer`` as swift-distributed-tracing's process-wide tracer, once.
private let installed: Bool = {
    InstrumentationSystem.bootstrap(processTracer)
    return true
}()

/// `GET /tracer`: a plain handler, handed nothing, whose `name` (asked while the registry is built) installs a
/// process-wide tracer, and which answers every span it recorded. AsyncHTTPClient took the process's tracer for
/// the gateway's calls to Apple, so a twenty-third reviewer's read each call's URL (the transaction id another
/// route's client sent) and Apple's status.
public struct TracingHandler: GatewayHandler {
    public static var name: String {
        _ = installed
        return "tracer"
    }

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let spans = processTracer.finishedSpans.map { "\($0.operationName) \($0.attributes)" }
        return .json(Array(try JSONSerialization.data(withJSONObject: spans)))
    }
}
