import AppStoreSignedData

/// A signed value from Apple's answer (a transaction, renewal info, notification), verified with the
/// gateway's own verifier: the JWS as Apple sent it, and its trusted payload.
package struct ServerAPISigned: Sendable {
    package let jws: String
    package let payload: SignedPayload
}
