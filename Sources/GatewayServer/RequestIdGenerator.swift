import GatewayCore
import Synchronization

/// Makes request ids unique across processes and restarts without a syscall per request: a random
/// per-process prefix and a counter, 15 characters so Swift keeps them inline, with no allocation.
package final class RequestIdGenerator: Sendable {
    /// The prefix's seven digits, written once.
    private let prefixDigits: UInt64
    private let counter = Atomic<UInt64>(0)

    package init() {
        var generator = SystemRandomNumberGenerator()
        let prefix = UInt64.random(in: 0..<(1 << 35), using: &generator)
        var digits: UInt64 = 0
        withUnsafeMutableBytes(of: &digits) { Self.writeBase32(prefix, into: $0.bindMemory(to: UInt8.self), at: 0) }
        prefixDigits = digits
    }

    /// A fresh id such as `k3v9q0a-000001a`: seven base-32 digits of the prefix, seven of the counter.
    package func next() -> String {
        let count = counter.add(1, ordering: .relaxed).newValue
        return String(unsafeUninitializedCapacity: 15) { buffer in
            UnsafeMutableRawPointer(buffer.baseAddress!).storeBytes(of: prefixDigits, as: UInt64.self)
            buffer[7] = UInt8(ascii: "-")
            Self.writeBase32(count, into: buffer, at: 8)
            return 15
        }
    }

    private static func writeBase32(_ value: UInt64, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        let digits: StaticString = "0123456789abcdefghijklmnopqrstuv"
        for position in 0..<7 {
            buffer[start + position] = digits.utf8Start[Int((value >> UInt64(5 * (6 - position))) & 31)]
        }
    }

    /// Whether a client-sent id may be echoed: 1 to 128 characters of letters, digits and `-_.:+/=`.
    package static func isAcceptable(_ id: String) -> Bool {
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
