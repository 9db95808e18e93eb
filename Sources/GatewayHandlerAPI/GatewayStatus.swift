/// What the process is doing, for operators: the status route's figures. What the `status` route is handed.
public struct GatewayStatus: HandedOutNeeds {
    private var reporting: RouteBound<@Sendable () -> StatusReport>

    package init(_ reporting: @escaping @Sendable () -> StatusReport) {
        self.reporting = RouteBound(reporting)
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<GatewayStatus> {
        var status = try source.provider.gatewayStatus()
        status.reporting = status.reporting.bound(to: source)
        return Provision(status)
    }

    /// The figures now, while the route it was handed to answers.
    public func report() throws -> StatusReport {
        try reporting.serving()()
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
    /// Each events endpoint's backlog; nil when no endpoint is configured, and for an endpoint whose ledger
    /// could not be read.
    public let eventEndpoints: [EventEndpointBacklog]?

    package init(
        version: String, uptimeSeconds: Int, workersTotal: Int, workersBusy: Int, requestsByStatus: [Int: Int],
        ledgerHealthy: Bool?, upstreamLastError: String?, eventEndpoints: [EventEndpointBacklog]? = nil
    ) {
        self.eventEndpoints = eventEndpoints
        self.version = version
        self.uptimeSeconds = uptimeSeconds
        self.workersTotal = workersTotal
        self.workersBusy = workersBusy
        self.requestsByStatus = requestsByStatus
        self.ledgerHealthy = ledgerHealthy
        self.upstreamLastError = upstreamLastError
    }
}
