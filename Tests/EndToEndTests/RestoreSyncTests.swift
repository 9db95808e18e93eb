import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// `/v1/restore-sync`: idempotent recording, counted as the ledger keys purchases.
    @Suite struct RestoreSync {
        @Test func theSameReceiptTwiceRecordsOnce() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let device = try gateway.receipt(transactions: [
                Receipt.transaction(SampleContent.issueId, "170001"),
                Receipt.transaction(SampleContent.monthlyId, "170002", lineItem: "970002", expires: "-20d"),
                Receipt.transaction(
                    SampleContent.monthlyId, "170003", original: "170002", lineItem: "970003", expires: "+10d"),
                Receipt.transaction(SampleContent.coinsId, "170004"),
            ])
            let first = try gateway.restore(device)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.json["environment"] as? String == "Production")
            #expect(first.json["recorded"] as? Int == 4)
            #expect(first.json["known"] as? Int == 0)
            #expect(first.entitlementProducts == [SampleContent.issueId, SampleContent.monthlyId])
            #expect(first.downloadToken(for: SampleContent.issueId) != nil)
            let second = try gateway.restore(device)
            #expect(second.json["recorded"] as? Int == 0)
            #expect(second.json["known"] as? Int == 4)
            #expect(try gateway.ledgerCounts() == .init(purchases: 4, transactions: 4))

            // Another device: the restore gives the non-consumable a new transaction id, same original.
            let otherDevice = try gateway.receipt(transactions: [
                Receipt.transaction(SampleContent.issueId, "180001", original: "170001")
            ])
            let restored = try gateway.restore(otherDevice)
            #expect(restored.json["recorded"] as? Int == 0)
            #expect(restored.json["known"] as? Int == 1)
            #expect(try gateway.ledgerCounts() == .init(purchases: 4, transactions: 5))
        }

        @Test func concurrentRestoresOfOneReceiptMakeOneSetOfRows() throws {
            let gateway = try VerifyDeployment(apple: ["cache_ttl_s": "0"])
            defer { gateway.stop() }
            let transactions = (0..<300).map { Receipt.transaction(SampleContent.coinsId, "19\($0)") }
            let receipt = try gateway.receipt(transactions: transactions)
            let answers = concurrently(6) { _ in try? gateway.restore(receipt) }
            #expect(answers.allSatisfy { $0?.status == 200 })
            let recorded = answers.compactMap { $0?.json["recorded"] as? Int }
            #expect(recorded.reduce(0, +) == 300, "\(recorded)")
            #expect(answers.compactMap { $0?.json["known"] as? Int }.reduce(0, +) == 300 * 5)
            #expect(try gateway.ledgerCounts() == .init(purchases: 300, transactions: 300))
        }

        @Test func aKilledRestoreLeavesAllOrNothingAndARetryCompletes() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            for attempt in 0..<4 {
                let receipt = try gateway.receipt(
                    transactions: (0..<400).map { Receipt.transaction(SampleContent.coinsId, "2\(attempt)\($0)") })
                let before = try gateway.ledgerCounts().purchases
                let request = Thread { _ = try? gateway.restore(receipt, timeout: .seconds(5)) }
                request.start()
                // Killed at a different moment each attempt: whatever the restore had reached, it is all or nothing.
                usleep(UInt32(5_000 + attempt * 15_000))
                gateway.deployment.gateway.signal(SIGKILL)
                #expect(gateway.deployment.gateway.waitForExit(within: .seconds(5)) != nil)
                let written = try gateway.ledgerCounts().purchases - before
                #expect(written == 0 || written == 400, "half-written restore: \(written) rows")
                try gateway.deployment.restartGateway()
                let retried = try gateway.restore(receipt)
                #expect(retried.status == 200)
                #expect(retried.json["recorded"] as? Int == 400 - written)
                #expect(try gateway.ledgerCounts().purchases == before + 400)
            }
        }
    }
}
