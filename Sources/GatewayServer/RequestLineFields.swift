import GatewayCore
import GatewayText
import Logging

/// The fields of a request's log line, in key order: `duration_ms`, `method`, `request-id`, `route`,
/// `status`. Written straight into a ``LogLine`` on the request path, or into swift-log metadata (where they
/// win over an answer's own fields of the same name) when the line goes through a logger.
struct RequestLineFields {
    let exchange: Exchange
    let route: String
    let status: Int
    let nanoseconds: Int

    func add<Fields: LogFields & ~Copyable>(to fields: inout Fields) {
        fields.add(plain: "duration_ms", nanoseconds / 1000, fractionDigits: 3)
        fields.add(plain: "method", exchange.request.method.rawValue)
        fields.add(plain: "request-id", exchange.context.requestId)
        fields.add(plain: "route", route)
        fields.add(plain: "status", status, fractionDigits: 0)
    }
}
