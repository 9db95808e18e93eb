import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Faults below the gateway (a broken App Store, a full disk): the client gets the error API.md names,
    /// and nothing acknowledged is lost or half-written.
    @Suite struct Faults {
        /// Three purchases from distinct original transactions, so a half-written receipt would show.
        static func threePurchases(_ original: Int) -> [[String: Any]] {
            [
                Receipt.transaction(SampleContent.issueId, "\(original)1"),
                Receipt.transaction(SampleContent.coinsId, "\(original)2"),
                Receipt.transaction(SampleContent.monthlyId, "\(original)3", lineItem: "\(original)4", expires: "+3d"),
            ]
        }

        static var appleFaults: [(name: String, step: [String: Any], outcome: String)] {
            [
                ("slow", ["delay_ms": 1500], "timeout"),
                ("reset", ["reset": true], "connection_error"),
                ("5xx", ["http_status": 502], "http_error"),
                ("truncated", ["truncate": true], "connection_error"),
                ("not JSON", ["body": "<html><body>Service Unavailable</body></html>"], "unreadable"),
                (
                    "huge", ["body": "{\"status\":0,\"pad\":\"" + String(repeating: "x", count: 9 << 20) + "\"}"],
                    "too_large"
                ),
            ]
        }

        @Test func everyAppleFaultIs503WithNothingRecordedThenRecovers() throws {
            let gateway = try VerifyDeployment(
                apple: ["timeout_ms": "500", "max_attempts": "2"], server: ["request_timeout_ms": "5000"])
            defer { gateway.stop() }
            for (index, fault) in Self.appleFaults.enumerated() {
                let transactions = Self.threePurchases(610 + index)
                let receipt = try gateway.receipt(transactions: transactions, extra: ["steps": [fault.step]])
                let started = ContinuousClock.now
                let answer = try gateway.verify(receipt)
                #expect(answer.status == 503, "\(fault.name): \(answer.text)")
                #expect(answer.errorCode == "upstream_unavailable", "\(fault.name)")
                #expect(Int(answer.header("Retry-After") ?? "") ?? 0 > 0, "\(fault.name)")
                #expect(started.duration(to: .now) < .seconds(5), "\(fault.name): answered before the front's 504")
                #expect(try gateway.ledgerCounts().transactions == 3 * index, "\(fault.name) recorded something")

                try gateway.receipt(receipt, transactions: transactions)  // Apple recovers
                let recovered = try gateway.verify(receipt)
                #expect(recovered.status == 200, "\(fault.name): \(recovered.text)")
                #expect(try gateway.ledgerCounts().transactions == 3 * (index + 1), "\(fault.name)")
            }
            let metrics = try gateway.deployment.request("/v1/metrics").text
            for outcome in Set(Self.appleFaults.map(\.outcome)) {
                let series = "storegate_apple_calls_total{host=\"Production\",outcome=\"\(outcome)\"}"
                #expect((Observability.value(series, in: metrics) ?? 0) > 0, "no \(outcome) in\n\(metrics)")
            }
            #expect(
                Observability.value(#"storegate_errors_total{code="upstream_unavailable"}"#, in: metrics)
                    == Double(Self.appleFaults.count))
        }

        @Test func aFullDiskIs503AndKeepsOnlyWholeAcknowledgedReceipts() throws {
            let gateway = try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain,
                environment: ["STOREGATE_LOG_REQUESTS": "false"],
                // Above what a new ledger's migrations write: their WAL is 535 KB since migration 17 (457 KB before).
                fileSizeLimit: 1_000_000
            )
            defer { gateway.stop() }
            let receipts = try (0..<600).map { try gateway.receipt(transactions: Self.threePurchases(7000 + $0)) }
            var acknowledged: [String] = []
            var refused: [String] = []
            for receipt in receipts {
                let answer = try gateway.verify(receipt)
                if answer.status == 200, refused.isEmpty {
                    acknowledged.append(receipt)
                    continue
                }
                #expect(answer.status == 503, "\(answer.text)")
                #expect(answer.errorCode == "ledger_unavailable")
                #expect(answer.header("Retry-After") != nil)
                refused.append(receipt)
                if refused.count == 3 { break }
            }
            #expect(
                !acknowledged.isEmpty && refused.count == 3, "the disk never filled: \(acknowledged.count) verified")
            let refund = try SignedTransactions.signed(SampleContent.issueId, "70001", revoked: true)
            let notification = try Notifications.post("REFUND", transaction: refund, to: gateway)
            #expect(notification.status == 503, "\(notification.text)")
            #expect(notification.errorCode == "ledger_unavailable")
            #expect(try gateway.deployment.request("/v1/catalog").status == 200, "reads still work")

            // The disk is freed: everything acknowledged is there, whole, and the rest records now.
            gateway.deployment.setup.fileSizeLimit = nil
            try gateway.deployment.restartGateway()
            #expect(try gateway.ledgerCounts().transactions == 3 * acknowledged.count)
            for receipt in acknowledged {
                let again = try gateway.restore(receipt)
                #expect(again.json["known"] as? Int == 3 && again.json["recorded"] as? Int == 0, "\(again.text)")
            }
            for receipt in refused { #expect(try gateway.restore(receipt).json["recorded"] as? Int == 3) }
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)
        }
    }
}
