import Foundation
import GatewayHandlerAPI

/// `POST /v1/notifications/apple`: a store's server notifications (App Store Server Notifications V2, whose
/// body is `{"signedPayload": "<JWS>"}`). The answer is 200 only once the notification and its transaction
/// are committed to the ledger (a repeat of a notification's UUID is 200 and changes nothing), so anything
/// else makes the store deliver it again later.
public struct NotificationsHandler: GatewayHandler {
    public static let name = "notifications"
    public static var methods: [HTTPMethod] { [.post] }

    private let intake: NotificationIntake

    public init(_ setup: HandlerSetup, needs intake: NotificationIntake) {
        self.intake = intake
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let outcome = try intake.record(context: context)
        return .json(Array(try JSONCoding.encoder.encode(["status": outcome.rawValue])))
    }
}
