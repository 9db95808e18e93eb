import Foundation
import GatewayCore
import Logging

/// Turns thrown errors into the JSON error answers of API.md. Anything that is not a ``GatewayError`` is a
/// bug or an outage: logged with the request id, answered 500 `internal_error` without details. The answer
/// carries its code, so the thread that finishes the request counts it (`storegate_errors_total`).
package struct ErrorRenderingMiddleware: GatewayMiddleware {
    package init() {}

    package func handle(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) throws -> GatewayResponse {
        answer(request, context: context, next: next)
    }

    /// The answer `next` gives, or the error answer for what it throws: never throws itself, so the chain
    /// around it need not catch.
    package func answer(
        _ request: GatewayRequest,
        context: RequestContext,
        next: (GatewayRequest, RequestContext) throws -> GatewayResponse
    ) -> GatewayResponse {
        do {
            return try next(request, context)
        } catch let error as GatewayError {
            guard Exchange.finalStatuses.contains(error.status) else {
                // A web server may read such a status its own way (Apache's atoi makes 4294967496 a 200).
                context.logger.error("a handler answered with a status that is not a final HTTP status; refused")
                return Self.response(for: .internalError)
            }
            return Self.response(for: error)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(error)", "path": "\(request.path)"])
            return Self.response(for: .internalError)
        }
    }

    /// The JSON answer for `error`.
    package static func response(for error: GatewayError) -> GatewayResponse {
        var response = GatewayResponse.json(
            status: error.status,
            Array(error.jsonBody),
            headers: ResponseHeaders(error.headers.map { ($0.name, $0.value) })
        )
        response.countedErrorCode = error.code
        return response
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
