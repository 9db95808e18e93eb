
/// What the process is doing, for operators: the status route's figures. What the `status` route is handed.
public struct GatewayStatus: HandlerNeeds {
    private let reporting: @Sendable () -> StatusReport
    private let use: CapabilityUse?

    package init(_ reporting: @escaping @Sendable () -> StatusReport) {
        self.reporting = reporting
        use = nil
    }

    private init(_ status: GatewayStatus, use: CapabilityUse) {
        reporting = status.reporting
        self.use = use
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<GatewayStatus> {
        Provision(GatewayStatus(try source.provider.gatewayStatus(), use: source.use))
    }

    /// The figures now, while the route it was handed to answers.
    public func report() throws -> StatusReport {
        guard let use else { throw GatewayError.internalError }
        try use.check()
        return reporting()
    }
}

/// The status route's figures at one moment.
public struct StatusReport: Sendable {
    public let version: String
    public let uptimeSeconds: Int
    public let workersTotal: Int
    public let workersBusy: Int
    /// Answered requests by HTTP status.
    public let requestsByStatus: [Int: Int]
    /// Whether the ledger can be read now; nil when no route of the load uses it.
    public let ledgerHealthy: Bool?
    /// The stores' most recent failure to answer, with its time.
    public let upstreamLastError: String?

    package init(
        version: String, uptimeSeconds: Int, workersTotal: Int, workersBusy: Int, requestsByStatus: [Int: Int],
        ledgerHealthy: Bool?, upstreamLastError: String?
    ) {
        self.version = version
        self.uptimeSeconds = uptimeSeconds
        self.workersTotal = workersTotal
        self.workersBusy = workersBusy
        self.requestsByStatus = requestsByStatus
        self.ledgerHealthy = ledgerHealthy
        self.upstreamLastError = upstreamLastError
    }
}
