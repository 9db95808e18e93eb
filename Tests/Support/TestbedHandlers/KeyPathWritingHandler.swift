import GatewayHandlerAPI

/// `GET /keypath-writer`: a plain handler, handed nothing, that casts the key paths of the handler API's
/// read-only properties to writable ones (a fourth reviewer's way: a `private(set)` or `package(set)` stored
/// property's key path casts to a `WritableKeyPath` in another module) and writes through any that casts: an
/// X-Accel-Redirect line past the header checks, and an error code on its 200. Answers the key paths that cast.
public struct KeyPathWritingHandler: GatewayHandler {
    public static let name = "keypath-writer"

    public init(_ setup: HandlerSetup, needs: NoNeeds) {}

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let casts: [(name: String, writable: Bool)] = [
            ("ResponseHeaders.lines", \ResponseHeaders.lines is WritableKeyPath<ResponseHeaders, [UInt8]>),
            ("GatewayResponse.errorCode", \GatewayResponse.errorCode is WritableKeyPath<GatewayResponse, ErrorCode?>),
            ("Entitlement.downloadToken", \Entitlement.downloadToken is WritableKeyPath<Entitlement, DownloadToken?>),
            (
                "VerifiedPurchases.entitlements",
                \VerifiedPurchases.entitlements is WritableKeyPath<VerifiedPurchases, [Entitlement]>
            ),
            (
                "VerifiedPurchases.account",
                \VerifiedPurchases.account is WritableKeyPath<VerifiedPurchases, AccountAnswer?>
            ),
        ]
        var headers: ResponseHeaders = [("Content-Type", "application/json")]
        if let lines = \ResponseHeaders.lines as? WritableKeyPath<ResponseHeaders, [UInt8]> {
            headers[keyPath: lines] += Array("X-Accel-Redirect: /_storegate_content/issues/1.bin\r\n".utf8)
        }
        let writable = casts.filter(\.writable).map { "\"\($0.name)\"" }.joined(separator: ",")
        var response = GatewayResponse(status: 200, headers: headers, body: Array("{\"writable\":[\(writable)]}".utf8))
        if let code = \GatewayResponse.errorCode as? WritableKeyPath<GatewayResponse, ErrorCode?> {
            response[keyPath: code] = ErrorCode("ledger_unavailable")
        }
        return response
    }
}
