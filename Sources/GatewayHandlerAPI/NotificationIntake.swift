/// The verification service's door for store server notifications: the body of the request being answered is
/// verified by the store that sent it and recorded once per notification id. What the `notifications` route is
/// handed.
public struct NotificationIntake: HandedOutNeeds {
    private var recording: RouteBound<@Sendable ([UInt8], String?, RequestContext) throws -> NotificationOutcome>

    /// `recording` takes the body, the `Authorization` header (a store's push token), and the context.
    package init(
        _ recording: @escaping @Sendable ([UInt8], String?, RequestContext) throws -> NotificationOutcome
    ) {
        self.recording = RouteBound(recording)
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<NotificationIntake> {
        var intake = try source.provider.notificationIntake()
        intake.recording = intake.recording.bound(to: source)
        return Provision(intake)
    }

    /// Verifies the notification in the body of the request `context` belongs to and records it and its
    /// transactions; returns only after the ledger commit, so the store's retries deliver anything that failed.
    public func record(context: RequestContext) throws -> NotificationOutcome {
        let (record, exchange) = try recording.serving(context)
        guard case .complete(let body) = exchange.request.body else {
            throw GatewayError.badRequest("The request body could not be read.")
        }
        return try record(body, exchange.request.header("Authorization"), exchange.context)
    }
}

/// What a store server notification did to the ledger.
public enum NotificationOutcome: String, Sendable {
    case recorded
    /// Its id was recorded before; nothing changed.
    case duplicate
}
