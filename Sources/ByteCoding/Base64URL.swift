/// Base64url without padding (RFC 4648 §5, as JWS and download tokens write it), encoded and decoded on
/// bytes: these run on every verify and download, where Foundation's base64 plus string replacement cost
/// more than the HMAC they carry. Inlinable, so each caller gets a copy specialised for its byte collection.
public enum Base64URL {
    @usableFromInline static let alphabet = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// `bytes` as base64url text, without padding.
    @inlinable
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let length = (bytes.count * 4 + 2) / 3
        return String(unsafeUninitializedCapacity: length) { text in
            var written = 0
            var accumulator: UInt32 = 0
            var bits = 0
            for byte in bytes {
                accumulator = accumulator << 8 | UInt32(byte)
                bits += 8
                while bits >= 6 {
                    bits -= 6
                    text[written] = alphabet[Int(accumulator >> UInt32(bits) & 0x3F)]
                    written += 1
                }
            }
            if bits > 0 {
                text[written] = alphabet[Int(accumulator << UInt32(6 - bits) & 0x3F)]
                written += 1
            }
            return written
        }
    }

    /// The bytes `text` encodes; nil for padding, any byte outside the alphabet, or an impossible length.
    @inlinable
    public static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        guard text.count % 4 != 1 else { return nil }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(text.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in text {
            let value: UInt8
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = byte - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = byte - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = byte - UInt8(ascii: "0") + 52
            case UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "_"): value = 63
            default: return nil
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                decoded.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return decoded
    }
}
