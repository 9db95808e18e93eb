import Crypto
import Foundation
import Testing

@testable import PurchaseEvents

/// The Swift receiver's check docs/API.md shows (Events, Signature), run against what the gateway signs.
@Suite struct ReceiverExampleTests {
    @Test func theDocumentedCheckAcceptsWhatTheGatewaySignsAndNothingElse() throws {
        let secret = "a-secret-of-sixteen-or-more"
        let body = Array(#"{"id":"evt_1","type":"purchase.recorded"}"#.utf8)
        let header = EventSignature(secret: secret).value(for: body, at: Date())
        #expect(verified(body: body, header: header, secret: secret))
        #expect(!verified(body: body + [0x20], header: header, secret: secret), "a changed body")
        #expect(!verified(body: body, header: header, secret: secret + "x"), "another secret")
        let old = EventSignature(secret: secret).value(for: body, at: Date() - 600)
        #expect(!verified(body: body, header: old, secret: secret), "a delivery captured ten minutes ago")
        #expect(!verified(body: body, header: "t=1,v1=zz", secret: secret))
        #expect(!verified(body: body, header: "", secret: secret))
    }

    @Test func theDocumentShowsThisCheckWordForWord() throws {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let document = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent("docs/API.md"), encoding: .utf8)
        // At the start of a line: this test's own text names it too.
        let start = try #require(source.range(of: "\nfunc verified(body:"))
        let end = try #require(source.range(of: "\n}\n", range: start.upperBound..<source.endIndex))
        let function = String(source[source.index(after: start.lowerBound)..<end.upperBound])
        #expect(document.contains(function))
    }
}

func verified(body: [UInt8], header: String, secret: String, tolerance: TimeInterval = 300) -> Bool {
    var fields: [Substring: Substring] = [:]
    for part in header.split(separator: ",") {
        let pair = part.split(separator: "=", maxSplits: 1)
        if pair.count == 2 { fields[pair[0]] = pair[1] }
    }
    guard let t = fields["t"], let seconds = TimeInterval(t), abs(Date().timeIntervalSince1970 - seconds) <= tolerance,
        let hex = fields["v1"], hex.count == 64
    else { return false }
    let signature = stride(from: 0, to: 64, by: 2).compactMap { offset -> UInt8? in
        let start = hex.index(hex.startIndex, offsetBy: offset)
        return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
    }
    return signature.count == 32
        && HMAC<SHA256>.isValidAuthenticationCode(
            signature, authenticating: Array(t.utf8) + [UInt8(ascii: ".")] + body,
            using: SymmetricKey(data: Array(secret.utf8)))
}
