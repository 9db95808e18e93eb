import AppStoreSignedData
import Foundation
import GatewayConcurrency
import GatewayCore

extension ServerAPIClient {
    /// Verifies one `signed*` value of an answer; TLS alone is not trust.
    func verified(_ jws: String) throws(ServerAPIFailure) -> ServerAPISigned {
        let verifier = verifier
        do {
            let payload = try AsyncBridge.wait { () async throws(SignedDataError) in try await verifier.verify(jws) }
            return ServerAPISigned(jws: jws, payload: payload)
        } catch {
            throw .untrustedAnswer("signed data in the App Store Server API's answer failed verification: \(error)")
        }
    }

    /// The JSON object of an answer, or a failure that says the answer was garbage.
    func object(_ body: [UInt8], from endpoint: ServerAPIEndpoint) throws(ServerAPIFailure) -> [String: Any] {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            throw .unavailable("an unreadable \(endpoint.rawValue) answer", retryAfter: .seconds(5))
        }
        return object
    }

    /// The strings at `key` of `object`, each verified.
    func verifiedList(_ object: [String: Any], _ key: String) throws(ServerAPIFailure) -> [ServerAPISigned] {
        guard let list = object[key] as? [String] else {
            throw .unavailable("the answer has no \(key) list", retryAfter: .seconds(5))
        }
        var verified: [ServerAPISigned] = []
        for jws in list { verified.append(try self.verified(jws)) }
        return verified
    }

    /// Runs `call` in production, then in the sandbox when production knows no such id and sandbox is
    /// accepted (as 21007 did for verifyReceipt).
    func inEitherEnvironment<T>(_ call: (ServerAPIEnvironment) throws(ServerAPIFailure) -> T) throws(ServerAPIFailure)
        -> T
    {
        do {
            return try call(.production)
        } catch  where error.isNotFound && settings.acceptSandbox {
            return try call(.sandbox)
        }
    }

    /// `text` when it is a transaction id (digits) or an order id (letters and digits), for a URL path.
    static func pathSegment(_ text: String, digitsOnly: Bool) throws(ServerAPIFailure) -> String {
        let allowed = text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39)
                || (!digitsOnly && ((byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)))
        }
        guard allowed, (1...64).contains(text.utf8.count) else {
            throw .rejected(
                digitsOnly ? "a transaction id is 1 to 64 digits" : "an order id is 1 to 64 letters and digits",
                appleErrorCode: nil)
        }
        return text
    }
}
