/// A notification in the stand-in's notification history, about one of its transactions.
public struct SimAPINotification: Codable, Sendable, Equatable {
    public var notificationType: String
    public var subtype: String?
    public var transactionId: String
    public var environment: String = "Production"
    /// When Apple sent it (relative or RFC 3339).
    public var sent: String = "-1h"
    public var notificationUUID: String

    enum CodingKeys: String, CodingKey {
        case subtype, environment, sent
        case notificationType = "notification_type"
        case transactionId = "transaction_id"
        case notificationUUID = "notification_uuid"
    }

    public init(notificationType: String, transactionId: String, notificationUUID: String, sent: String = "-1h") {
        self.notificationType = notificationType
        self.transactionId = transactionId
        self.notificationUUID = notificationUUID
        self.sent = sent
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        notificationType = try container.decode(String.self, forKey: .notificationType)
        subtype = try container.decodeIfPresent(String.self, forKey: .subtype)
        transactionId = try container.decode(String.self, forKey: .transactionId)
        environment = try container.decodeIfPresent(String.self, forKey: .environment) ?? environment
        sent = try container.decodeIfPresent(String.self, forKey: .sent) ?? sent
        notificationUUID = try container.decode(String.self, forKey: .notificationUUID)
    }
}
