import Foundation
import GatewayHandlerAPI

/// `GET /slow?ms=N`: holds its worker for N milliseconds (at most 20 s), then answers. Exercises worker
/// saturation, time limits and graceful stop; compiled only into `storegate-testbed`.
public struct SlowHandler: GatewayHandler {
    public static let name = "slow"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let milliseconds =
            request.query.split(separator: "&")
            .first { $0.hasPrefix("ms=") }
            .flatMap { Int($0.dropFirst(3)) } ?? 1000
        Thread.sleep(forTimeInterval: Double(min(max(milliseconds, 0), 20_000)) / 1000)
        return .json(Array("{\"slept_ms\":\(milliseconds)}".utf8))
    }
}
