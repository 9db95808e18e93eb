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
            metrics?.errorAnswered(code: error.codeName)
            return Self.response(for: error)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(error)", "path": "\(request.path)"])
            metrics?.errorAnswered(code: GatewayError.internalError.codeName)
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
    private struct Envelope: Encodable {
        struct Detail: Encodable {
            let code: String
            let message: String
            let apple_status: Int?
        }
        let error: Detail
    }

    /// `{"error": {"code": ..., "message": ..., "apple_status": ...}}` (`apple_status` only when Apple gave one).
    var jsonBody: Data {
        // Encoding two strings and an integer cannot fail.
        let detail = Envelope.Detail(code: codeName, message: message, apple_status: appleStatus)
        return (try? JSONCoding.encoder.encode(Envelope(error: detail))) ?? Data()
    }
}
