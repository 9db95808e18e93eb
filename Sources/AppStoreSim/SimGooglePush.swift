import ByteCoding
import Crypto
import CryptoExtras
import Foundation

/// Google Cloud Pub/Sub's side of real-time developer notifications: each push carries an OIDC token that Pub/Sub
/// signs (RS256) for the push subscription's audience and service account, under a key of the stand-in's own
/// that it publishes as a JWKS (`GET /_sim/google/push-keys`), as Google publishes its keys. A test asks for a
/// push (`POST /_sim/google/pubsub`) and sends it to the gateway, as Pub/Sub would; it can ask for a forged one.
public struct SimGooglePush: Sendable {
    /// How a push's token is forged, to see the gateway refuse it.
    public enum Forgery: String, Codable, Sendable {
        /// Signed by another key under the published key's id.
        case otherKey = "other-key"
        /// Expired an hour ago.
        case expired
        /// Issued by someone other than accounts.google.com.
        case issuer
        /// The email is not verified.
        case unverifiedEmail = "unverified-email"
        /// Signed with HS256 over the published key's modulus.
        case symmetric
        /// Carries no token at all.
        case missing
        /// Signed by the published key but naming a key id Google does not publish.
        case unknownKid = "unknown-kid"
    }

    /// What `POST /_sim/google/pubsub` takes.
    public struct Request: Codable, Sendable {
        /// The developer notification (JSON), as Google Play publishes it.
        public var notification: String
        public var messageId: String
        public var audience: String
        public var email: String
        public var forgery: Forgery?

        enum CodingKeys: String, CodingKey {
            case notification, audience, email, forgery
            case messageId = "message_id"
        }

        public init(notification: String, messageId: String, audience: String, email: String, forgery: Forgery? = nil) {
            self.notification = notification
            self.messageId = messageId
            self.audience = audience
            self.email = email
            self.forgery = forgery
        }
    }

    /// A push as Pub/Sub sends it: the `Authorization` header (nil when there is none) and the body.
    public struct Push: Codable, Sendable {
        public var authorization: String?
        public var body: String
    }

    private let key: _RSA.Signing.PrivateKey
    private let kid: String

    public init() throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        kid = "sim-push-" + UUID().uuidString.prefix(8).lowercased()
    }

    /// The published keys, as Google's JWKS document.
    public var jwks: [UInt8] {
        let primitives = try? key.publicKey.getKeyPrimitives()
        let jwk: [String: String] = [
            "kty": "RSA", "alg": "RS256", "use": "sig", "kid": kid,
            "n": Base64URL.encode(Array(primitives?.modulus ?? Data())),
            "e": Base64URL.encode(Array(primitives?.publicExponent ?? Data())),
        ]
        return Array((try? JSONSerialization.data(withJSONObject: ["keys": [jwk]], options: [.sortedKeys])) ?? Data())
    }

    /// The push of `request`.
    public func push(_ request: Request) throws -> Push {
        let message: [String: Any] = [
            "data": Data(request.notification.utf8).base64EncodedString(), "messageId": request.messageId,
            "message_id": request.messageId, "publishTime": Date().formatted(.iso8601),
            "attributes": [String: String](),
        ]
        let envelope: [String: Any] = [
            "message": message, "subscription": "projects/sim-project/subscriptions/play-notifications",
        ]
        let body = String(
            decoding: try JSONSerialization.data(withJSONObject: envelope, options: [.sortedKeys]), as: UTF8.self)
        guard request.forgery != .missing else { return Push(authorization: nil, body: body) }
        return Push(authorization: "Bearer " + (try token(request)), body: body)
    }

    /// The OIDC token Pub/Sub signs for `request`.
    private func token(_ request: Request) throws -> String {
        let now = Int(Date().timeIntervalSince1970)
        let issued = request.forgery == .expired ? now - 7200 : now
        let claims: [String: Any] = [
            "iss": request.forgery == .issuer ? "https://accounts.example.com" : "https://accounts.google.com",
            "aud": request.audience, "azp": "104356734234934243453", "sub": "104356734234934243453",
            "email": request.email, "email_verified": request.forgery != .unverifiedEmail,
            "iat": issued, "exp": issued + 3600,
        ]
        let algorithm = request.forgery == .symmetric ? "HS256" : "RS256"
        let header = ["alg": algorithm, "kid": request.forgery == .unknownKid ? kid + "-next" : kid, "typ": "JWT"]
        let input =
            Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))) + "."
            + Base64URL.encode(Array(try JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys])))
        let signature: [UInt8]
        switch request.forgery {
        case .symmetric:
            let secret = SymmetricKey(data: try key.publicKey.getKeyPrimitives().modulus)
            signature = Array(HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: secret))
        case .otherKey:
            let other = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            signature = Array(try other.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5).rawRepresentation)
        default:
            signature = Array(try key.signature(for: Data(input.utf8), padding: .insecurePKCS1v1_5).rawRepresentation)
        }
        return input + "." + Base64URL.encode(signature)
    }
}
