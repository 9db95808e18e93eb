import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Apple's status policy and outages, end to end: what the client sees and how often Apple was asked.
    @Suite struct AppleTrouble {
        static var issue: [[String: Any]] { [Receipt.transaction(SampleContent.issueId, "600001")] }

        @Test func transientTroubleIsRetriedUntilAVerdict() throws {
            let gateway = try VerifyDeployment(apple: ["max_attempts": "6"])
            defer { gateway.stop() }
            let steps: [[String: Any]] = [
                ["status": 21005], ["http_status": 503], ["body": "<html>busy</html>"], ["status": 21009],
                ["status": 21100, "is_retryable": true], [:],
            ]
            let receipt = try gateway.receipt(transactions: Self.issue, extra: ["steps": steps])
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 200, "\(answer.text)")
            #expect(try gateway.appStore.calls(receipt)["Production"] == 6)
        }

        @Test func malformedDataIsRetriedOnceThenInvalid() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let twice = try gateway.receipt(transactions: Self.issue, extra: ["steps": [["status": 21002]]])
            let answer = try gateway.verify(twice)
            #expect(answer.status == 422)
            #expect(answer.errorCode == "receipt_invalid")
            #expect(answer.appleStatus == 21002)
            #expect(try gateway.appStore.calls(twice)["Production"] == 2)

            let once = try gateway.receipt(
                transactions: Self.issue, extra: ["steps": [["status": 21002], [String: Any]()]])
            #expect(try gateway.verify(once).status == 200)
        }

        @Test(arguments: [21003, 21010, 21101])
        func definitiveRejectionsAreInvalidAndCached(_ status: Int) throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            var step: [String: Any] = ["status": status]
            if status == 21101 { step["is_retryable"] = false }
            let receipt = try gateway.receipt(transactions: Self.issue, extra: ["steps": [step]])
            for _ in 0..<3 {
                let answer = try gateway.verify(receipt)
                #expect(answer.status == 422)
                #expect(answer.errorCode == "receipt_invalid")
                #expect(answer.appleStatus == status)
            }
            #expect(try gateway.appStore.calls(receipt)["Production"] == 1)
        }

        @Test func retryableIsAlsoReadWithAnUnderscore() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let steps: [[String: Any]] = [["status": 21150, "is_retryable": true, "underscore": true], [:]]
            let receipt = try gateway.receipt(transactions: Self.issue, extra: ["steps": steps])
            #expect(try gateway.verify(receipt).status == 200)
            #expect(try gateway.appStore.calls(receipt)["Production"] == 2)
        }

        @Test func aRefusedSharedSecretIs502AndTheSecretIsSentAsPassword() throws {
            let wrong = try VerifyDeployment(
                simSecret: "right-secret-0d4b", environment: ["STOREGATE_APPLE_SHARED_SECRET": "wrong-secret-77ea"])
            defer { wrong.stop() }
            let receipt = try wrong.receipt(transactions: Self.issue)
            let answer = try wrong.verify(receipt)
            #expect(answer.status == 502)
            #expect(answer.errorCode == "upstream_misconfigured")
            #expect(answer.appleStatus == 21004)
            let logs = try wrong.logs(through: answer)
            #expect(logs.contains("21004"))
            #expect(!logs.contains("wrong-secret-77ea"))
            #expect(!logs.contains(Receipt.data(receipt)))

            let right = try VerifyDeployment(
                simSecret: "right-secret-0d4b", environment: ["STOREGATE_APPLE_SHARED_SECRET": "right-secret-0d4b"])
            defer { right.stop() }
            #expect(try right.verify(try right.receipt(transactions: Self.issue)).status == 200)
        }

        @Test func appleDownIs503WithRetryAfterBeforeTheDeadline() throws {
            let gateway = try VerifyDeployment(server: ["request_timeout_ms": "4000"])
            defer { gateway.stop() }
            let receipt = try gateway.receipt(transactions: Self.issue, extra: ["steps": [["http_status": 500]]])
            let started = ContinuousClock.now
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 503)
            #expect(answer.errorCode == "upstream_unavailable")
            #expect(Int(answer.header("Retry-After") ?? "") ?? 0 > 0)
            #expect(started.duration(to: .now) < .seconds(4))
            #expect(try gateway.appStore.calls(receipt)["Production"] == 4)
            // An outage is never cached: once Apple is back, the same receipt verifies.
            try gateway.receipt(receipt, transactions: Self.issue)
            #expect(try gateway.verify(receipt).status == 200)
            let status = try gateway.deployment.request("/v1/status")
            #expect(
                ((status.json["upstream"] as? [String: Any])?["last_error"] as? String)?.contains("HTTP 500") == true)
            #expect(status.json["ledger"] as? String == "ok")
        }

        @Test func aSlowAppleIsCutOffByTheCallTimeout() throws {
            let gateway = try VerifyDeployment(apple: ["timeout_ms": "300", "max_attempts": "2"])
            defer { gateway.stop() }
            let receipt = try gateway.receipt(transactions: Self.issue, extra: ["steps": [["delay_ms": 3000]]])
            let started = ContinuousClock.now
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 503)
            #expect(answer.errorCode == "upstream_unavailable")
            #expect(started.duration(to: .now) < .seconds(3))
        }

        @Test func anUnreachableAppleIs503() throws {
            let closedPort = try FreePort.next()
            let gateway = try VerifyDeployment(apple: ["production_url": "http://127.0.0.1:\(closedPort)/verifyReceipt"]
            )
            defer { gateway.stop() }
            let receipt = try gateway.receipt(transactions: Self.issue)
            let started = ContinuousClock.now
            let answer = try gateway.verify(receipt)
            #expect(answer.status == 503)
            #expect(answer.header("Retry-After") != nil)
            // Refused connections are retried by the status policy, not until the per-call timeout.
            #expect(started.duration(to: .now) < .seconds(5))
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }
    }
}
