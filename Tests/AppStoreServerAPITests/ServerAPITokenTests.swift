import AppStoreSim
import ByteCoding
import Crypto
import Foundation
import Testing

@testable import AppStoreServerAPI

/// The JWT the gateway sends: decoded and verified here with swift-crypto, claims exact.
@Suite struct ServerAPITokenTests {
    static func credentials(_ key: P256.Signing.PrivateKey) throws -> ServerAPICredentials {
        try ServerAPICredentials(
            issuerId: "57246542-96fe-1a63-e053-0824d011072a", keyId: "2X9R4HXF34", bundleId: "com.example",
            keyPEM: key.pemRepresentation)
    }

    static func decode(_ segment: Substring) throws -> [String: Any] {
        let bytes = try #require(Base64URL.decode(Array(segment.utf8)))
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test func headerAndClaimsAreApplesAndTheSignatureVerifies() throws {
        let key = P256.Signing.PrivateKey()
        let issued = Date(timeIntervalSince1970: 1_790_000_000)
        let token = try ServerAPITokens.make(try Self.credentials(key), issuedAt: issued)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        #expect(parts.count == 3)
        let header = try Self.decode(parts[0])
        #expect(header.count == 3)
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "2X9R4HXF34")
        #expect(header["typ"] as? String == "JWT")
        let claims = try Self.decode(parts[1])
        #expect(claims.count == 5)
        #expect(claims["iss"] as? String == "57246542-96fe-1a63-e053-0824d011072a")
        #expect((claims["iat"] as? NSNumber)?.intValue == 1_790_000_000)
        #expect((claims["exp"] as? NSNumber)?.intValue == 1_790_000_000 + 30 * 60)
        #expect(claims["aud"] as? String == "appstoreconnect-v1")
        #expect(claims["bid"] as? String == "com.example")
        let signature = try P256.Signing.ECDSASignature(
            rawRepresentation: try #require(Base64URL.decode(Array(parts[2].utf8))))
        #expect(key.publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
        #expect(
            !P256.Signing.PrivateKey().publicKey.isValidSignature(
                signature, for: Array((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func aTokenIsReusedUntilShortlyBeforeItExpires() throws {
        let tokens = ServerAPITokens(credentials: try Self.credentials(P256.Signing.PrivateKey()))
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        let first = try tokens.token(now: start)
        #expect(try tokens.token(now: start.addingTimeInterval(24 * 60)) == first)
        let renewed = try tokens.token(now: start.addingTimeInterval(26 * 60))
        #expect(renewed != first)
        #expect(try tokens.token(now: start.addingTimeInterval(27 * 60)) == renewed)
    }

    @Test func theStandInAcceptsOurTokenAndRefusesOthers() throws {
        let key = P256.Signing.PrivateKey()
        let check = try SimJWTCheck(
            issuerId: "57246542-96fe-1a63-e053-0824d011072a", keyId: "2X9R4HXF34", bundleId: "com.example",
            publicKeyPEM: key.publicKey.pemRepresentation)
        let now = Date()
        let good = try ServerAPITokens.make(try Self.credentials(key), issuedAt: now)
        #expect(check.refusal("Bearer " + good, now: now) == nil)
        #expect(check.refusal("Bearer " + good, now: now.addingTimeInterval(31 * 60)) != nil)
        let otherKey = try ServerAPITokens.make(try Self.credentials(P256.Signing.PrivateKey()), issuedAt: now)
        #expect(check.refusal("Bearer " + otherKey, now: now) == "bad signature")
        #expect(check.refusal(nil, now: now) != nil)
    }

    @Test func theKeyNeverAppearsInTheCredentialsDescription() throws {
        let key = P256.Signing.PrivateKey()
        let text = "\(try Self.credentials(key))"
        #expect(text.contains("2X9R4HXF34"))
        #expect(!text.contains(key.pemRepresentation.split(separator: "\n")[1]))
        #expect(throws: ServerAPIFailure.self) {
            try ServerAPICredentials(issuerId: "i", keyId: "k", bundleId: "b", keyPEM: "not a key")
        }
    }
}
