import Foundation

/// The payload of verified App Store signed data, with the claims every kind of it carries.
public struct SignedPayload: Sendable {
    /// `Production`, `Sandbox`, `Xcode` or `LocalTesting`.
    public let environment: String
    /// The app it was signed for; renewal info has none.
    public let bundleId: String?
    /// The app's Apple ID a notification names (`appAppleId`); nil for other kinds.
    public let appAppleId: Int64?
    /// When Apple signed it; the certificates were checked at this moment.
    public let signedDate: Date
    /// The payload's JSON, for the decoder of its kind (transaction, renewal info, notification).
    public let json: Data
}
