import Foundation

/// Turns thrown errors into the JSON error answers of API.md. Anything that is not a ``GatewayError`` is a
/// bug or an outage: logged with the request id, answered 500 `internal_error` without details.
public struct ErrorRenderingMiddleware: GatewayMiddleware {
    public init() {}

    public func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        do {
            return try next(request, context)
        } catch let error as GatewayError {
            return Self.response(for: error)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(error)", "path": "\(request.path)"])
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
        }
        let error: Detail
    }

    /// `{"error": {"code": ..., "message": ...}}`
    var jsonBody: Data {
        // Encoding two strings cannot fail.
        (try? JSONCoding.encoder.encode(Envelope(error: .init(code: codeName, message: message)))) ?? Data()
    }
}
