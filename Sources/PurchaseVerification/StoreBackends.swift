import CoreMetrics
import GatewayHandlerAPI
import Logging

/// The stores of one load: the modules that read credentials from request bodies, and their backends in the
/// order they are asked.
package struct StoreBackends: Sendable {
    package let backends: [any VerificationBackend]
    private let stores: [any VerifierProvider.Type]

    package init(backends: [any VerificationBackend], stores: [any VerifierProvider.Type]) {
        self.backends = backends
        self.stores = stores
    }

    /// The backends the store modules `providers` build from their sections of `config` (whole) and the load's
    /// `catalog`, problems reported there; a load that verifies purchases with none throws. Declares the
    /// verification codes.
    package init(
        config: ConfigReader, providers: [any VerifierProvider.Type], catalog: Catalog?, logger: Logger,
        metricsFactory: any MetricsFactory,
        declare: @escaping @Sendable ([ErrorCode]) -> Void
    ) throws {
        // Only the stores the config sets up read credentials: a body for another is not this server's.
        var configured: [any VerifierProvider.Type] = []
        let refundRequests =
            config.hasSection(RefundRequestPolicy.section)
            ? RefundRequestPolicy(config.scoped(RefundRequestPolicy.section)) : nil
        let backends = try providers.flatMap { provider in
            let made = try provider.makeBackends(
                StoreSetup(
                    section: config.scoped(provider.section), isConfigured: config.hasSection(provider.section),
                    catalog: catalog, logger: logger, metricsFactory: metricsFactory, refundRequests: refundRequests,
                    declare: declare))
            if !made.isEmpty { configured.append(provider) }
            return made
        }
        guard !backends.isEmpty else {
            let sections = providers.map { $0.section }
            config.report(
                sections.first ?? "routes",
                "is required: a route verifies purchases, and this build verifies them with: "
                    + (sections.isEmpty ? "nothing" : sections.joined(separator: ", ")))
            throw ConfigProblems([])
        }
        declare(ErrorCode.verification)
        self.init(backends: backends, stores: configured)
    }

    /// The first backend that checks `credential`; nil when none does.
    package func backend(for credential: Credential) -> (any VerificationBackend)? {
        backends.first { $0.accepts(credential) }
    }

    /// The most recent failure to reach a store, with its time, for `/v1/status`.
    package var lastUpstreamError: String? {
        // Each starts with its ISO 8601 time, so the greatest is the latest.
        backends.compactMap(\.lastUpstreamError).max()
    }

    /// The credential of a content request: a Bearer token first, else a store's proof in the body. Throws 401
    /// `receipt_required` when there is neither, 400 `bad_request` for a malformed one.
    package func credential(contentRequest request: GatewayRequest) throws(GatewayError) -> Credential {
        if let authorization = request.header("Authorization") {
            let parts = authorization.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, parts[0].utf8.elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }),
                !parts[1].isEmpty
            else {
                throw .badRequest("Authorization must be \"Bearer <download token>\".")
            }
            return .downloadToken(String(parts[1]))
        }
        guard let credential = try storeCredential(in: request) else { throw .receiptRequired }
        return credential
    }

    /// The store's proof in the body of verify or restore-sync; 400 `bad_request` without one.
    package func credential(verificationRequest request: GatewayRequest) throws(GatewayError) -> Credential {
        guard let credential = try storeCredential(in: request) else {
            let members = stores.map { $0.credentialMembers }.filter { !$0.isEmpty }.joined(separator: ", or ")
            throw .badRequest("The body must carry \(members.isEmpty ? "a credential" : members).")
        }
        return credential
    }

    private func storeCredential(in request: GatewayRequest) throws(GatewayError) -> Credential? {
        let example = stores.first.map { " such as \($0.exampleBody)" } ?? ""
        guard
            let body = try PurchaseBody(
                from: request, notAnObject: .badRequest("The body must be a JSON object\(example)."))
        else { return nil }
        for store in stores {
            if let credential = try store.credential(in: body) { return .store(credential) }
        }
        return nil
    }
}
