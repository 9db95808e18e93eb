/// Why signed App Store data (a JWS or an app receipt) was refused. The reason is safe to log: it never
/// contains the data.
public struct SignedDataError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable {
        case malformed
        case untrustedChain
        case badSignature
        case environmentNotAccepted
        case bundleMismatch
    }

    private let code: Code
    /// What exactly was wrong, for logs and the client's error message.
    public let reason: String
    /// The environment of genuine data refused for it (`Sandbox`, `Xcode`); nil for other refusals.
    public let refusedEnvironment: String?

    private init(_ code: Code, _ reason: String, refusedEnvironment: String? = nil) {
        self.code = code
        self.reason = reason
        self.refusedEnvironment = refusedEnvironment
    }

    /// Not a compact ES256 JWS with a JSON header and payload, or a claim has the wrong type.
    public static func malformed(_ reason: String) -> Self { Self(.malformed, reason) }
    /// The x5c chain does not lead to a configured root with Apple's OIDs, valid at the signing date.
    public static func untrustedChain(_ reason: String) -> Self { Self(.untrustedChain, reason) }
    /// The signature does not match the leaf certificate's key.
    public static func badSignature(_ reason: String) -> Self { Self(.badSignature, reason) }
    /// Signed for an environment (`Sandbox`, `Xcode`, ...) this deployment does not accept.
    public static func environmentNotAccepted(_ environment: String) -> Self {
        Self(.environmentNotAccepted, "\(environment) data is not accepted", refusedEnvironment: environment)
    }
    /// Signed for another app.
    public static func bundleMismatch(_ reason: String) -> Self { Self(.bundleMismatch, reason) }

    /// Not signed data at all (a client mistake rather than a forgery).
    public var isMalformed: Bool { code == .malformed }
    /// Genuine data for another app.
    public var isBundleMismatch: Bool { code == .bundleMismatch }

    public var description: String { "\(code.rawValue): \(reason)" }
}
