import Crypto
import Foundation

/// The `StoreGate-Signature` header of one delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256>`, the MAC taken with
/// the endpoint's secret over the seconds, a dot, and the body's bytes. A receiver recomputes it, compares in
/// constant time, and refuses a timestamp far from its clock (a replayed capture). `v1` names the scheme, so a
/// later one can be sent beside it while receivers move over.
package struct EventSignature: Sendable, CustomReflectable {
    /// The header's name.
    package static let header = "StoreGate-Signature"

    private let keyed: HMAC<SHA256>

    /// Nothing: a keyed state signs whatever it is given.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    package init(secret: String) {
        keyed = HMAC(key: SymmetricKey(data: Array(secret.utf8)))
    }

    /// The header's value for `body` sent at `at`.
    package func value(for body: [UInt8], at: Date) -> String {
        let seconds = String(Int(at.timeIntervalSince1970))
        var mac = keyed
        mac.update(data: Array(seconds.utf8) + [UInt8(ascii: ".")])
        mac.update(data: body)
        let hex = mac.finalize().map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        return "t=\(seconds),v1=\(hex)"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
