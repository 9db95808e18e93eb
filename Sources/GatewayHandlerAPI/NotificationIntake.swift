/// The verification service's door for store server notifications: the body is verified by the store that
/// sent it and recorded once per notification id. What the `notifications` route is handed.
public struct NotificationIntake: HandlerNeeds {
    private let recording: @Sendable ([UInt8], RequestContext) throws -> NotificationOutcome

    package init(_ recording: @escaping @Sendable ([UInt8], RequestContext) throws -> NotificationOutcome) {
        self.recording = recording
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<NotificationIntake> {
        Provision(try source.provider.notificationIntake())
    }

    /// Verifies the notification in `body` and records it and its transactions; returns only after the
    /// ledger commit, so the store's retries deliver anything that failed.
    public func record(_ body: [UInt8], context: RequestContext) throws -> NotificationOutcome {
        try recording(body, context)
    }
}

/// What a store server notification did to the ledger.
public enum NotificationOutcome: String, Sendable {
    case recorded
    /// Its id was recorded before; nothing changed.
    case duplicate
}
