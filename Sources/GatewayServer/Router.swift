import Foundation
import GatewayCore

/// Maps a request path and method to the route mounted there. Built once per (re)load, then read-only.
package struct Router: Sendable {
    /// One mounted route. A class: handing the route a request matched costs one reference count.
    package final class Route: Sendable {
        package let path: String
        package let handlerName: String
        package let methods: [HTTPMethod]
        package let servesSubpaths: Bool
        package let responder: any RouteResponder

        package init(
            path: String,
            handlerName: String,
            methods: [HTTPMethod],
            servesSubpaths: Bool,
            responder: any RouteResponder
        ) {
            self.path = path
            self.handlerName = handlerName
            self.methods = methods
            self.servesSubpaths = servesSubpaths
            self.responder = responder
        }
    }

    /// Every mounted route, in config order.
    package let routes: [Route]
    /// Routes by exact path, first mount of a path only. Scanned, not hashed: a config mounts a handful, and
    /// comparing short strings costs less than hashing one.
    private let exact: [Route]
    /// Subpath routes, longest path first, so the most specific mount wins.
    private let prefixed: [(prefix: String, route: Route)]

    package init(routes: [Route]) {
        self.routes = routes
        var seen = Set<String>()
        exact = routes.filter { seen.insert($0.path).inserted }
        prefixed = routes.filter(\.servesSubpaths)
            .map { (prefix: $0.path.hasSuffix("/") ? $0.path : $0.path + "/", route: $0) }
            .sorted { $0.prefix.count > $1.prefix.count }
    }

    /// The route that serves `path`, if any. A subpath with a `.` or `..` segment, spelt plainly or
    /// percent-encoded, has none: nginx picks its location from the path with those resolved
    /// (`/v1/notes/../download/x` is in `/v1/download/`, whose location follows `X-Accel-Redirect`), this router
    /// from the path as sent, so such a path would reach one route here and another location's rules there.
    package func route(for path: String) -> Route? {
        for route in exact where route.path == path { return route }
        guard let match = prefixed.first(where: { path.hasPrefix($0.prefix) }), !Self.hasDotSegment(path) else {
            return nil
        }
        return match.route
    }

    /// Whether `path`, percent-decoded, has a `.` or `..` segment (one it cannot decode counts as one).
    static func hasDotSegment(_ path: String) -> Bool {
        guard path.contains("%") || path.contains("/.") else { return false }
        guard let decoded = path.removingPercentEncoding else { return true }
        return decoded.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." }
    }

    /// Routes the request: 404 `not_found` for unmounted paths, 405 `method_not_allowed` with `Allow`
    /// for methods the route does not take.
    package func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        try respond(to: request, route: route(for: request.path), context: context)
    }

    /// Answers the request with `route`, already looked up for its path (nil: not mounted).
    func respond(to request: GatewayRequest, route: Route?, context: RequestContext) throws -> GatewayResponse {
        guard let route else { throw GatewayError.notFound }
        guard route.methods.contains(request.method) else {
            throw GatewayError.methodNotAllowed(allowed: route.methods)
        }
        return try route.responder.respond(to: request, context: context)
    }
}
