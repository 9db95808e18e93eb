import AppStoreSignedData

/// A signed value from Apple's answer (a transaction, renewal info, notification), verified with the
/// gateway's own verifier: the JWS as Apple sent it, and its trusted payload.
public struct ServerAPISigned: Sendable {
    public let jws: String
    public let payload: SignedPayload
}
