import AppStoreReceipts
import Foundation
import GatewayCore

/// `POST /v1/notifications/apple`: App Store Server Notifications V2. Apple posts `{"signedPayload": "<JWS>"}`;
/// the answer is 200 only once the notification and its transaction are committed to the ledger (a repeat
/// of a `notificationUUID` is 200 and changes nothing), so anything else makes Apple deliver it again later.
public struct NotificationsHandler: GatewayHandler {
    public static let name = "notifications"
    public static var methods: [HTTPMethod] { [.post] }

    private let verifier: AppStoreVerifier

    public init(settings: HandlerSettings) throws {
        verifier = try settings.appStoreVerifier()
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        guard case .complete(let body) = request.body,
            let notification = try? JSONDecoder().decode(Body.self, from: Data(body))
        else { throw GatewayError.badRequest("The body must be {\"signedPayload\": \"<JWS>\"}.") }
        let outcome = try verifier.record(notification: notification.signedPayload, context: context)
        return .json(Array(try JSONCoding.encoder.encode(["status": outcome.rawValue])))
    }

    private struct Body: Decodable {
        let signedPayload: String
    }
}
