import Foundation
import GatewayHandlerAPI
import PurchaseVerification
import Testing

@testable import AppStoreReceipts

/// The App Store's credentials as request bodies carry them.
@Suite struct AppStoreCredentialTests {
    private func credential(_ text: String) throws -> AppStoreCredential? {
        let request = GatewayRequest(method: .post, path: "/", body: .complete(Array(text.utf8)))
        let body = try #require(try PurchaseBody(from: request, notAnObject: .badRequest("not an object")))
        return try AppStoreCredential(body: body)
    }

    @Test func eachKindIsReadAndSignedTransactionsComeFirst() throws {
        let receipt = try credential(#"{"receipt-data":"MII T\n","exclude-old-transactions":true}"#)
        #expect(receipt == .appReceipt(try AppReceiptCredential(base64: "MIIT", excludeOldTransactions: true)))
        guard case .appReceipt(let decoded) = receipt else { return }
        #expect(decoded.bytes == Data([0x30, 0x82, 0x13]))
        #expect(
            try credential(#"{"signed-transaction":"a.b.c"}"#) == .signedTransactions(["a.b.c"], appTransaction: nil))
        #expect(
            try credential(#"{"signed-transactions":["a.b.c"],"signed-transaction":"d.e.f","receipt-data":"YQ=="}"#)
                == .signedTransactions(["a.b.c", "d.e.f"], appTransaction: nil))
        #expect(
            try credential(#"{"signed-transaction":"a.b.c","app-transaction":"g.h.i"}"#)
                == .signedTransactions(["a.b.c"], appTransaction: "g.h.i"))
        // An app transaction names the customer, not a purchase: alone it is no credential.
        #expect(try credential(#"{"app-transaction":"g.h.i"}"#) == nil)
        #expect(try credential(#"{"transaction-id":"2000000123"}"#) == .transactionId("2000000123"))
        #expect(try credential(#"{"receipt-data":"","transaction-id":""}"#) == nil)
        #expect(try credential("{}") == nil)
    }

    @Test(arguments: [
        #"{"receipt-data":true}"#, #"{"exclude-old-transactions":"yes"}"#, #"{"signed-transactions":"a.b.c"}"#,
        #"{"signed-transaction":["a.b.c"]}"#, #"{"transaction-id":["2000000123"]}"#,
        #"{"exclude-old-transactions":1,"receipt-data":"YQ=="}"#,
    ])
    func aKnownMemberOfTheWrongTypeIsRefused(_ text: String) {
        #expect(
            throws: GatewayError.badRequest(
                "The body must be a JSON object such as {\"receipt-data\": \"<base64>\", \"exclude-old-transactions\": false}."
            )
        ) { try credential(text) }
    }

    @Test func aReceiptThatIsNotBase64IsRefused() {
        #expect(throws: GatewayError.badRequest("receipt-data must be the app receipt in base64.")) {
            try credential(#"{"receipt-data":"%%%"}"#)
        }
    }

    @Test(arguments: [" YW\r\nJj\t", "YWJj", "Y\u{0B}W\u{0C}Jj ", "YW\u{00A0}Jj\u{2028}"])
    func receiptsLoseTheirWhitespaceWhateverKind(_ text: String) throws {
        let receipt = try AppReceiptCredential(base64: text)
        #expect(receipt.base64 == "YWJj")
        #expect(receipt.bytes == Data("abc".utf8))
    }
}
