import Foundation
import GatewayHandlerAPI
import Testing

@testable import PurchaseVerification

@Suite struct PurchaseBodyTests {
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
        #expect(flat.members.mapValues(PurchaseBody.Value.init) == (try PurchaseBody.decoded(Array(text.utf8))))
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

    /// What `JSONDecoder` makes of values the quick reader does not take: strict types, so a number is never a
    /// boolean, and anything else is `other`.
    @Test func theDecoderKeepsTypesStrict() throws {
        let members = try PurchaseBody.decoded(
            Array(#"{"a":1,"b":{"x":true},"c":"\u0041","d":[1],"e":true,"f":["x"]}"#.utf8))
        #expect(members["a"] == .other)
        #expect(members["b"] == .other)
        #expect(members["c"] == .string("A"))
        #expect(members["d"] == .other)
        #expect(members["e"] == .bool(true))
        #expect(members["f"] == .strings(["x"]))
        #expect(throws: (any Error).self) { try PurchaseBody.decoded(Array(#"["receipt-data"]"#.utf8)) }
    }

    @Test func aBodyThatIsNotAnObjectIsAnsweredAsTheCallerSays() throws {
        let refusal = GatewayError.badRequest("not an object")
        let request = GatewayRequest(method: .post, path: "/", body: .complete(Array("[1".utf8)))
        #expect(throws: refusal) { try PurchaseBody(from: request, notAnObject: refusal) }
        #expect(try PurchaseBody(from: GatewayRequest(method: .post, path: "/"), notAnObject: refusal) == nil)
        let wrong = try #require(
            try PurchaseBody(
                from: GatewayRequest(method: .post, path: "/", body: .complete(Array(#"{"a":true}"#.utf8))),
                notAnObject: refusal))
        #expect(throws: refusal) { try wrong.string("a", wrongType: refusal) }
        #expect(try wrong.string("b", wrongType: refusal) == nil)
    }
}
