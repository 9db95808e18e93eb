import AppStoreReceipts
import Foundation
import GatewayHandlerAPI
import Testing

/// Apple's answers as they are in the wild: the JSON vectors, and the drift seen elsewhere.
@Suite struct VerifyReceiptDecodingTests {
    static func vector(_ path: String) throws -> [UInt8] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Vectors")
        return Array(try Data(contentsOf: folder.appendingPathComponent(path)))
    }

    @Test func aModernAnswerWithStringNumbers() throws {
        let response = try VerifyReceiptResponse(
            json: try Self.vector("nomad-venice/receipt_not_expired_cancelled.json"))
        #expect(response.status == 0)
        #expect(response.environment == "Production")
        #expect(response.bundleId == "com.foo.bar")
        let transaction = try #require(response.transactions.first)
        #expect(response.transactions.count == 1)
        #expect(transaction.transactionId == "1000000070107111")
        #expect(transaction.originalTransactionId == "1000000061051111")
        #expect(transaction.webOrderLineItemId == "1000000026812043")
        #expect(transaction.purchaseDate == Date(timeIntervalSince1970: 1_401_288_473))
        // No expires_date_ms: the formatted `2014-06-28 14:47:53 Etc/GMT` is read instead.
        #expect(transaction.expiresDate == Date(timeIntervalSince1970: 1_403_966_873))
        #expect(transaction.cancellationDate == nil)
        #expect(transaction.quantity == 1)
    }

    @Test func anIOS6AnswerWithObjectsAndStatus21006() throws {
        let response = try VerifyReceiptResponse(json: try Self.vector("nomad-venice/receipt_expired_cancelled.json"))
        #expect(response.status == 21006)
        #expect(response.bundleId == "com.foo.bar")
        // `receipt` and `latest_expired_receipt_info` are the same transaction: kept once.
        #expect(response.transactions.map(\.transactionId) == ["140000527258824"])
        // `expires_date` holds milliseconds in this shape.
        #expect(response.transactions.first?.expiresDate == Date(timeIntervalSince1970: 1_550_386_188))
    }

    @Test func numericFieldsAndBothListsDeduplicated() throws {
        let response = try VerifyReceiptResponse(
            json: try Self.vector("aporat-store-receipt-validator/inAppPurchaseResponse.json"))
        #expect(response.status == 0)
        #expect(response.environment == "Sandbox")
        #expect(response.bundleId == "com.myapp")
        let ids = Set(response.transactions.map(\.transactionId))
        #expect(ids == ["1000000156455961", "1000000156014803", "1000000104232856", "1000000093384828"])
        let renewal = try #require(response.transactions.first { $0.transactionId == "1000000104232856" })
        #expect(renewal.originalTransactionId == "1000000093384828")
        #expect(renewal.webOrderLineItemId == "1000000027948608")
        #expect(renewal.expiresDate == Date(timeIntervalSince1970: 1_394_619_485))
        #expect(renewal.quantity == 1)
        // Oldest purchase first.
        let dates = response.transactions.compactMap(\.purchaseDate)
        #expect(dates == dates.sorted())
    }

    @Test func aBareStatus() throws {
        let response = try VerifyReceiptResponse(
            json: try Self.vector("aporat-store-receipt-validator/inAppPurchaseInvalidReceiptResponse.json"))
        #expect(response.status == 21002)
        #expect(response.transactions.isEmpty)
        #expect(response.bundleId == nil)
    }

    @Test func driftUnknownFieldsAndRetryFlags() throws {
        let json = """
            {"status": "21100", "is_retryable": "true", "environment": "Staging", "future_field": {"a": [1]},
             "receipt": {"bundle_id": "b", "in_app": [
                {"transaction_id": 17, "product_id": "p", "purchase_date_ms": 1697679936049.7297, "quantity": "3",
                 "web_order_line_item_id": 0, "cancellation_date_ms": "1700000000000", "offer_code_ref_name": "X"},
                {"product_id": "no-id"}]},
             "latest_receipt_info": {"transaction_id": "18", "product_id": "p", "expires_date_ms": 1800000000000}}
            """
        let response = try VerifyReceiptResponse(json: Array(json.utf8))
        #expect(response.status == 21100)
        #expect(response.isRetryable)
        #expect(response.environment == "Staging")
        #expect(response.transactions.map(\.transactionId).sorted() == ["17", "18"])
        let first = try #require(response.transactions.first { $0.transactionId == "17" })
        #expect(first.quantity == 3)
        #expect(first.webOrderLineItemId == nil)
        #expect(first.cancellationDate == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(abs((first.purchaseDate?.timeIntervalSince1970 ?? 0) - 1_697_679_936.0497) < 0.001)
        #expect(
            response.transactions.first { $0.transactionId == "18" }?.expiresDate
                == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func garbageIsAnError() {
        #expect(throws: AppleResponseError.notJSON) { try VerifyReceiptResponse(json: Array("<html>".utf8)) }
        #expect(throws: AppleResponseError.notJSON) { try VerifyReceiptResponse(json: Array("{\"status\": 0".utf8)) }
        #expect(throws: AppleResponseError.noStatus) { try VerifyReceiptResponse(json: Array("[0]".utf8)) }
        #expect(throws: AppleResponseError.noStatus) {
            try VerifyReceiptResponse(json: Array("{\"status\": \"ok\"}".utf8))
        }
    }
}
