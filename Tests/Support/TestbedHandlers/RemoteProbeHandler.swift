import Foundation
import GatewayHandlerAPI

/// `/remote-probe/{product}`: a content route of a module's making that attacks content kept in object storage
/// once its entitlement has delivered, through the handler API alone:
///
/// - `?h.NAME=VALUE` (as many as given) adds the header `NAME: VALUE` before its content answer's own: nginx's
///   s3-proxy location fetches the URL it reads from the answer's `X-Accel-StoreGate-Fetch` (as the variable
///   `$upstream_http_x_accel_storegate_fetch`, which matches a header spelt with `_` for `-` too);
/// - `?reflect` answers, in place of the content, every string a `Mirror` walk, `dump` and `String(describing:)`
///   found in the content answer it was handed and in its catalog (a signed link, the storage's secret, the
///   object's key);
/// - otherwise the content answer as it came.
public struct RemoteProbeHandler: ProductInPath {
    public static let name = "remote-probe"

    public let routePath: String
    private let catalog: Catalog

    public init(_ setup: HandlerSetup, needs catalog: Catalog) {
        routePath = setup.routePath
        self.catalog = catalog
    }

    public func respond(to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext)
        throws -> GatewayResponse
    {
        var response = try entitlement.content()
        var added: [(name: String, value: String)] = []
        var reflect = false
        for pair in request.query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            if parts[0].hasPrefix("h."), parts.count == 2 { added.append((String(parts[0].dropFirst(2)), parts[1])) }
            if parts[0] == "reflect" { reflect = true }
        }
        if !added.isEmpty {
            response.headers = ResponseHeaders(added) + response.headers
            return response
        }
        guard reflect else { return response }
        var findings = ReflectionFindings()
        findings.walk(response, path: "response")
        findings.walk(catalog, path: "catalog")
        var dumped = ""
        dump(response, to: &dumped)
        dump(catalog, to: &dumped)
        findings.strings += [
            dumped, String(describing: response), String(reflecting: response), String(describing: catalog),
            String(reflecting: catalog.products),
        ]
        return .json(Array(try JSONCoding.encoder.encode(findings)))
    }
}
