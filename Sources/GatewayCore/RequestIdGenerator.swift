import Synchronization

/// Makes request ids unique across processes and restarts without a syscall per request:
/// a random per-process prefix and a counter.
public final class RequestIdGenerator: Sendable {
    private let prefix: String
    private let counter = Atomic<UInt64>(0)

    public init() {
        var generator = SystemRandomNumberGenerator()
        let random = UInt64.random(in: 0..<(1 << 48), using: &generator)
        prefix = String(random, radix: 16).leftPadded(to: 12)
    }

    /// A fresh id such as `3f9a0c21b7e4-00000000002a`.
    public func next() -> String {
        let value = counter.add(1, ordering: .relaxed).newValue
        return prefix + "-" + String(value, radix: 16).leftPadded(to: 12)
    }

    /// Whether a client-sent id may be echoed: 1 to 128 characters of letters, digits and `-_.:+/=`.
    public static func isAcceptable(_ id: String) -> Bool {
        guard (1...128).contains(id.utf8.count) else { return false }
        return id.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                return true
            default:
                return "-_.:+/=".utf8.contains(byte)
            }
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
