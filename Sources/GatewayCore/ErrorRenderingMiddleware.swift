import Foundation

/// Turns thrown errors into the JSON error answers of API.md. Anything that is not a ``GatewayError`` is a
/// bug or an outage: logged with the request id, answered 500 `internal_error` without details.
public struct ErrorRenderingMiddleware: GatewayMiddleware {
    private let metrics: GatewayMetrics?

    /// Counts every error answer by code in `metrics` (`storegate_errors_total`).
    public init(metrics: GatewayMetrics? = nil) {
        self.metrics = metrics
    }

    public func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        do {
            return try next(request, context)
        } catch let error as GatewayError {
            metrics?.errorAnswered(error.code)
            return Self.response(for: error)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(error)", "path": "\(request.path)"])
            metrics?.errorAnswered(.internalError)
            return Self.response(for: .internalError)
        }
    }

    /// The JSON answer for `error`.
    public static func response(for error: GatewayError) -> GatewayResponse {
        .json(
            status: error.status,
            Array(error.jsonBody),
            headers: error.headers.map { ($0.name, $0.value) }
        )
    }
}

extension GatewayError {
    /// `{"error": {"code": ..., "message": ..., <details>}}`, members in sorted order.
    private struct Envelope: Encodable {
        let error: GatewayError

        enum CodingKeys: String, CodingKey { case error }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var object = container.nestedContainer(keyedBy: Member.self, forKey: .error)
            try object.encode(error.codeName, forKey: Member("code"))
            try object.encode(error.message, forKey: Member("message"))
            for detail in error.details { try object.encode(detail.value, forKey: Member(detail.name)) }
        }
    }

    private struct Member: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    var jsonBody: Data {
        // Encoding strings and integers cannot fail.
        (try? JSONCoding.encoder.encode(Envelope(error: self))) ?? Data()
    }
}
