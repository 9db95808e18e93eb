import ByteCoding
import Foundation
import Testing

struct Base64URLTests {
    /// Foundation's base64 rewritten to the URL alphabet without padding: what RFC 4648 §5 says.
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test func everyLengthEncodesAsRFC4648SaysAndDecodesBack() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...67 {
            // Bytes that reach both URL-specific characters (62 and 63) as well as the rest.
            let bytes = (0..<length).map { index in
                index % 3 == 0 ? 0xFB : UInt8.random(in: .min ... .max, using: &generator)
            }
            let text = Base64URL.encode(bytes)
            #expect(text == Self.reference(bytes), "length \(length)")
            #expect(Base64URL.decode(Array(text.utf8)) == bytes, "length \(length)")
        }
    }

    @Test(arguments: ["QQ==", "QQ=", "a+b/", "ab cd", "abcde", "ab.c", "ab\ncd"])
    func paddingOtherAlphabetsAndImpossibleLengthsAreRefused(_ text: String) {
        #expect(Base64URL.decode(Array(text.utf8)) == nil)
    }

    @Test func theURLAlphabetDecodes() {
        #expect(Base64URL.decode(Array("-_8".utf8)) == [0xFB, 0xFF])
        #expect(Base64URL.decode([]) == [])
    }
}
