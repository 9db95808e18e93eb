import Foundation
import GatewayCore
import Testing

@testable import PurchaseVerification

@Suite struct PurchaseRequestBodyTests {
    /// Bodies the quick reader takes: it must read them exactly as `JSONDecoder` does.
    @Test(arguments: [
        #"{"receipt-data":"YmVuY2g="}"#,
        #"{ "receipt-data" : "YWJj\/ZGVm+Zz==" , "exclude-old-transactions" : true }"#,
        #"{"receipt-data":"","exclude-old-transactions":false,"password":"ignored"}"#,
        #"{"receipt-data":null,"exclude-old-transactions":null}"#,
        #"{"signed-transaction":"a.b.c"}"#,
        #"{"transaction-id":"2000000123"}"#,
        #"{"transaction-id":""}"#,
        #"{"signed-transactions":["a.b.c","d.e.f"],"signed-transaction":"g.h.i"}"#,
        #"{"signed-transactions":[],"note":"a \"quoted\" \\ word"}"#,
        "{\n\t\"receipt-data\": \"YQ==\"\r\n}",
        #"{}"#,
    ])
    func theQuickReaderReadsWhatJSONDecoderReads(_ text: String) throws {
        let flat = try #require(FlatJSONObject(Array(text.utf8)))
        let quick = try #require(PurchaseRequestBody(flat))
        #expect(quick == (try JSONDecoder().decode(PurchaseRequestBody.self, from: Data(text.utf8))))
    }

    /// Bodies it leaves to `JSONDecoder`: other value types, escapes it does not read, broken JSON.
    @Test(arguments: [
        #"{"receipt-data":"YQ==","amount":1}"#, #"{"receipt-data":{"nested":true}}"#, #"{"receipt-data":"\u0041"}"#,
        #"{"receipt-data":"é"}"#, #"{"receipt-data":"a","receipt-data":"b"}"#, #"{"receipt-data":"a"} x"#,
        #"{"receipt-data":"a""#, #"{"receipt-data":"a",}"#, #"["receipt-data"]"#, #"{"receipt-data":tru}"#,
        "{\"receipt-data\":\"line\nbreak\"}", #"{"signed-transactions":[1]}"#,
    ])
    func anythingElseIsLeftToJSONDecoder(_ text: String) {
        #expect(FlatJSONObject(Array(text.utf8)) == nil)
    }

    @Test(arguments: [
        #"{"receipt-data":true}"#, #"{"exclude-old-transactions":"yes"}"#, #"{"signed-transactions":"a.b.c"}"#,
        #"{"signed-transaction":["a.b.c"]}"#, #"{"transaction-id":["2000000123"]}"#,
    ])
    func aKnownMemberOfTheWrongTypeIsLeftToJSONDecoderWhichRefusesIt(_ text: String) throws {
        let flat = try #require(FlatJSONObject(Array(text.utf8)))
        #expect(PurchaseRequestBody(flat) == nil)
        #expect(throws: (any Error).self) { try JSONDecoder().decode(PurchaseRequestBody.self, from: Data(text.utf8)) }
    }

    @Test(arguments: [" YW\r\nJj\t", "YWJj", "Y\u{0B}W\u{0C}Jj ", "YW\u{00A0}Jj\u{2028}"])
    func receiptsLoseTheirWhitespaceWhateverKind(_ text: String) throws {
        let receipt = try AppReceiptCredential(base64: text)
        #expect(receipt.base64 == "YWJj")
        #expect(receipt.bytes == Data("abc".utf8))
    }
}
