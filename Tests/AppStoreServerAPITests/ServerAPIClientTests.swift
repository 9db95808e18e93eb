import AppStoreServerAPI
import AppStoreSignedData
import AppStoreSim
import Foundation
import Testing

/// The client against the Server API stand-in on 127.0.0.1: answers verified, pages followed, sandbox
/// fallback, and Apple's failure modes.
@Suite struct ServerAPIClientTests {
    static func purchases(_ count: Int, environment: String = "Production") -> [SimAPITransaction] {
        (1...count).map { index in
            var transaction = SimAPITransaction(
                transactionId: "\(2_000_000 + index)", productId: "com.example.issue.\(index)", environment: environment
            )
            transaction.purchase = "-\(count - index + 1)d"
            return transaction
        }
    }

    static func field(_ signed: ServerAPISigned, _ name: String) -> String? {
        let object = try? JSONSerialization.jsonObject(with: signed.payload.json) as? [String: Any]
        return object?[name] as? String
    }

    @Test func transactionInfoIsVerifiedBeforeItIsBelieved() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(1))
        defer { bed.server.close() }
        let signed = try await bed.value { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(Self.field(signed, "productId") == "com.example.issue.1")
        #expect(signed.payload.environment == "Production")
        #expect(bed.serverAPI.calls.map(\.path) == ["/inApps/v1/transactions/2000001"])
        #expect(
            bed.exposition.contains(
                #"storegate_apple_api_calls_total{endpoint="transaction_info",environment="Production",outcome="ok"} 1"#
            ))
    }

    @Test func historyFollowsEveryPage() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(5), pageSize: 2)
        defer { bed.server.close() }
        let history = try await bed.value { try $0.transactionHistory("2000003", deadline: .soon, logger: .test) }
        #expect(history.compactMap { Self.field($0, "transactionId") } == (1...5).map { "\(2_000_000 + $0)" })
        #expect(
            bed.serverAPI.calls.map(\.path) == [
                "/inApps/v2/history/2000003", "/inApps/v2/history/2000003?revision=r2",
                "/inApps/v2/history/2000003?revision=r4",
            ])
    }

    @Test func aSandboxTransactionIsFoundInTheSandboxOnlyWhenSandboxIsAccepted() async throws {
        let sandbox = Self.purchases(1, environment: "Sandbox")
        let bed = try ServerAPITestbed(transactions: sandbox)
        defer { bed.server.close() }
        let signed = try await bed.value { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(signed.payload.environment == "Sandbox")
        #expect(
            bed.serverAPI.calls.map(\.path) == [
                "/inApps/v1/transactions/2000001", "/sandbox/inApps/v1/transactions/2000001",
            ])
        let strict = try ServerAPITestbed(transactions: sandbox, acceptSandbox: false)
        defer { strict.server.close() }
        let failure = await strict.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(failure?.isNotFound == true)
        #expect(failure?.appleErrorCode == 4_040_010)
        #expect(strict.serverAPI.calls.count == 1)
    }

    @Test func aRefusedTokenIsAMisconfigurationNotRetried() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(1), simKeyId: "OTHERKEY")
        defer { bed.server.close() }
        let failure = await bed.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(failure?.isMisconfigured == true)
        #expect(bed.serverAPI.calls.map(\.authorized) == [false])
    }

    @Test func aForgedSignatureInApplesAnswerIsRefused() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(1))
        defer { bed.server.close() }
        var forged = SimAPIStep(endpoint: "transaction_info")
        forged.forged = true
        bed.serverAPI.play([forged])
        let failure = await bed.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(failure?.isUntrustedAnswer == true)
        // The next, honest answer is believed.
        _ = try await bed.value { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
    }

    @Test func appleTroubleIsRetriedThenGivenUpOn() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(1))
        defer { bed.server.close() }
        var garbage = SimAPIStep()
        garbage.body = "<html>oops"
        var reset = SimAPIStep()
        reset.reset = true
        bed.serverAPI.play([SimAPIStep(httpStatus: 503), reset])
        _ = try await bed.value { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(bed.serverAPI.calls.count == 3)
        bed.serverAPI.play([SimAPIStep(httpStatus: 500), SimAPIStep(httpStatus: 503), SimAPIStep(httpStatus: 502)])
        let down = await bed.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(down?.isUnavailable == true)
        #expect(down?.retryAfter == .seconds(5))
        #expect(bed.serverAPI.calls.count == 6)
        bed.serverAPI.play([garbage])
        let unreadable = await bed.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(unreadable?.isUnavailable == true)
    }

    @Test func aSlowAnswerIsCutOffAtTheCallTimeoutAndAskedAgainWithinTheDeadline() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(1))
        defer { bed.server.close() }
        var slow = SimAPIStep()
        slow.delayMs = 10_000
        bed.serverAPI.play([slow])
        let started = ContinuousClock.now
        _ = try await bed.value { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        // timeout_ms is 2000: the slow call was given up on, and a second one answered.
        #expect(started.duration(to: .now) >= .seconds(2))
        #expect(bed.serverAPI.calls.count == 2)
        bed.serverAPI.play([slow])
        let cut = await bed.failure {
            try $0.transactionInfo("2000001", deadline: .now + .seconds(1), logger: .test)
        }
        #expect(cut?.isUnavailable == true)
        // The deadline left no time for a second call.
        #expect(bed.serverAPI.calls.count == 3)
    }

    @Test func a429IsHonouredWithoutCallingAppleBeforeRetryAfter() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(1))
        defer { bed.server.close() }
        // An hour: the second ask must come inside the pause however long a loaded machine keeps this test waiting.
        bed.serverAPI.play([SimAPIStep(endpoint: "transaction_info", httpStatus: 429, retryAfterS: 3_600)])
        let limited = await bed.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(limited?.isRateLimited == true)
        let pause = try #require(limited?.retryAfter)
        #expect(pause > .seconds(3_500) && pause <= .seconds(3_600))
        let again = await bed.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(again?.isRateLimited == true)
        #expect(bed.serverAPI.calls.count == 1)
        #expect(
            bed.exposition.contains(
                #"storegate_apple_api_calls_total{endpoint="transaction_info",environment="Production",outcome="over_budget"} 1"#
            ))
        // Other endpoints are not held back by this one's limit.
        _ = try await bed.value { try $0.transactionHistory("2000001", deadline: .soon, logger: .test) }
        #expect(bed.serverAPI.calls.count == 2)
    }

    @Test func anEndpointIsCalledAgainOnceRetryAfterHasPassed() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(1))
        defer { bed.server.close() }
        bed.serverAPI.play([SimAPIStep(endpoint: "transaction_history", httpStatus: 429, retryAfterS: 1)])
        // Before the 429 arrives, so that a slow test machine can only make the wait look longer.
        let refusedAt = ContinuousClock.now
        let limited = await bed.failure { try $0.transactionHistory("2000001", deadline: .soon, logger: .test) }
        let pause = try #require(limited?.retryAfter)
        // Asked again and again: refused without a call until the pause has passed, then answered by Apple. Each
        // turn asks before it looks at the clock, so a test thread kept waiting past the bound still asks once
        // after the pause (a busy CI machine once woke it only then, and the loop ended without asking).
        var answeredAt: ContinuousClock.Instant?
        while answeredAt == nil {
            let askedAt = ContinuousClock.now
            if case .success = await bed.result({ try $0.transactionHistory("2000001", deadline: .soon, logger: .test) }
            ) {
                answeredAt = .now
            } else {
                #expect(bed.serverAPI.calls.count == 1, "a call reached Apple before its Retry-After")
                guard refusedAt.duration(to: askedAt) < pause + .seconds(10) else { break }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        // The endpoint closed for the pause once the 429 arrived, after refusedAt.
        #expect(try refusedAt.duration(to: #require(answeredAt)) >= pause)
        #expect(bed.serverAPI.calls.count == 2)
    }

    @Test func theHourlyBudgetStopsCallsBeforeAppleDoes() async throws {
        let bed = try ServerAPITestbed(transactions: Self.purchases(1), extraConfig: ["calls_per_hour": "2"])
        defer { bed.server.close() }
        for _ in 0..<2 { _ = try await bed.value { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) } }
        let spent = await bed.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: .test) }
        #expect(spent?.isRateLimited == true)
        #expect(bed.serverAPI.calls.count == 2)
    }

    @Test func hostileIdsNeverReachAURL() async throws {
        let bed = try ServerAPITestbed()
        defer { bed.server.close() }
        for id in ["../../admin", "123?x=1", "", String(repeating: "1", count: 65), "12 3"] {
            let failure = await bed.failure { try $0.transactionInfo(id, deadline: .soon, logger: .test) }
            #expect(failure?.isRejected == true)
        }
        #expect(bed.serverAPI.calls.isEmpty)
    }
}
