import Foundation
import JWTKit

/// Who the gateway is to Google: a Google Cloud service account's key, read from the JSON file Google Cloud
/// hands out (`type: service_account`, `client_email`, `private_key` as PKCS#8 PEM RSA, `private_key_id`). Its
/// description names the account, never shows the key; a problem says what is wrong, never quotes the file.
package struct GoogleServiceAccount: Sendable, CustomStringConvertible {
    /// The account's address, the assertion's `iss`.
    package let clientEmail: String
    /// The key's id, the assertion's `kid` (Google finds the public key by it).
    package let keyId: String?
    let key: Insecure.RSA.PrivateKey

    /// Reads the key file's text; throws `misconfigured` saying what is missing or wrong.
    package init(json: [UInt8]) throws(GooglePlayFailure) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any] else {
            throw GooglePlayFailure(
                .misconfigured, "is not a JSON object (a service account key file from Google Cloud)")
        }
        guard object["type"] as? String == "service_account" else {
            throw GooglePlayFailure(
                .misconfigured, "is not a service account key (its \"type\" is not \"service_account\")")
        }
        guard let email = object["client_email"] as? String, !email.isEmpty else {
            throw GooglePlayFailure(.misconfigured, "has no \"client_email\"")
        }
        guard let pem = object["private_key"] as? String, !pem.isEmpty else {
            throw GooglePlayFailure(.misconfigured, "has no \"private_key\"")
        }
        do {
            key = try Insecure.RSA.PrivateKey(pem: pem)
        } catch {
            throw GooglePlayFailure(
                .misconfigured, "has a \"private_key\" that is not a PEM RSA private key of at least 2048 bits")
        }
        clientEmail = email
        keyId = (object["private_key_id"] as? String).flatMap { $0.isEmpty ? nil : $0 }
    }

    package var description: String {
        "service account \(clientEmail)" + (keyId.map { " (key \($0))" } ?? "")
    }
}
