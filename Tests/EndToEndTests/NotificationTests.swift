import Foundation
import PurchaseLedger
import SignedTestData
import Testing

extension EndToEnd {
    /// App Store Server Notifications V2 through nginx, signed by Apple's test chain.
    @Suite struct Notifications {
        /// A signed notification of `type` carrying `transaction` (a signed transaction) and `renewal` (signed
        /// renewal info), as Apple posts it: in Production, naming the app `appAppleId` (the test gateways' own by
        /// default).
        static func post(
            _ type: String, transaction: String?, uuid: String = UUID().uuidString, environment: String = "Sandbox",
            appAppleId: Int = SampleContent.appAppleId, renewal: String? = nil, to gateway: VerifyDeployment
        ) throws -> HTTPResponse {
            var data: [String: Any] = ["bundleId": SampleContent.bundleId, "environment": environment]
            if environment == "Production" { data["appAppleId"] = appAppleId }
            if let renewal { data["signedRenewalInfo"] = renewal }
            if let transaction { data["signedTransactionInfo"] = transaction }
            let payload: [String: Any] = [
                "notificationType": type, "notificationUUID": uuid, "data": data, "version": "2.0",
                "signedDate": Date().timeIntervalSince1970 * 1000,
            ]
            let body = try JSONSerialization.data(withJSONObject: ["signedPayload": try SignedVectors.mint(payload)])
            return try gateway.deployment.request("/v1/notifications/apple", method: "POST", body: Array(body))
        }

        @Test func refundsBlockDownloadsOnceAndReversalsRestoreThem() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let issue = try SignedTransactions.signed(SampleContent.issueId, "710001")
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([issue]))
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)

            let refund = try SignedTransactions.signed(SampleContent.issueId, "710001", revoked: true)
            let uuid = UUID().uuidString
            let first = try Self.post("REFUND", transaction: refund, uuid: uuid, to: gateway)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.json["status"] as? String == "recorded")
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 403)
            let again = try Self.post("REFUND", transaction: refund, uuid: uuid, to: gateway)
            #expect(again.json["status"] as? String == "duplicate")

            let reversed = try Self.post("REFUND_REVERSED", transaction: issue, to: gateway)
            #expect(reversed.json["status"] as? String == "recorded")
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            #expect(try gateway.ledgerCounts() == .init(purchases: 1, transactions: 1))
        }

        @Test func aSignedTransactionSavedBeforeARefundNoLongerDownloads() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let saved = try SignedTransactions.signed(SampleContent.issueId, "710101")
            let post = {
                try gateway.deployment.request(
                    "/v1/download/\(SampleContent.issueId)", method: "POST", body: SignedTransactions.body([saved]))
            }
            #expect(SampleContent.sha256(try post().body) == SampleContent.issueSHA256)
            let refund = try SignedTransactions.signed(SampleContent.issueId, "710101", revoked: true)
            #expect(try Self.post("REFUND", transaction: refund, to: gateway).status == 200)
            // Apple's signature on the old transaction still checks out; the ledger knows of the refund.
            let replayed = try post()
            #expect(replayed.status == 403, "\(replayed.text)")
            #expect(replayed.errorCode == "not_entitled")
            #expect(try Self.post("REFUND_REVERSED", transaction: saved, to: gateway).status == 200)
            #expect(try post().status == 200)
        }

        @Test func aRenewalExtendsTheSubscriptionInTheLedger() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let lapsed = try SignedTransactions.signed(
                SampleContent.monthlyId, "720001", type: "Auto-Renewable Subscription", expiresIn: -1)
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([lapsed]))
            #expect(verified.entitlementProducts.isEmpty)
            let renewal = try SignedTransactions.signed(
                SampleContent.monthlyId, "720002", type: "Auto-Renewable Subscription", expiresIn: 30,
                original: "720001")
            #expect(try Self.post("DID_RENEW", transaction: renewal, to: gateway).status == 200)
            let periods = try SQLiteLedger(path: gateway.ledgerPath).purchases(
                environment: "Sandbox", originalTransactionId: "720001")
            #expect(periods.count == 2)
            #expect((periods.first?.expiresDate ?? .distantPast) > Date().addingTimeInterval(29 * 86_400))
        }

        /// Apple's ONE_TIME_CHARGE (API 1.15): a consumable or non-consumable paid for while the app never reached
        /// the gateway is recorded from the notification alone, and its appAccountToken's account holds it.
        @Test func aOneTimeChargeTheAppNeverReportedIsRecordedAndHeldByItsAccount() throws {
            let gateway = try Accounts.gateway(policy: "keep")
            defer { gateway.stop() }
            let account = UUID()
            let owner = account.uuidString.lowercased()
            #expect(try Accounts.holdings(owner, in: gateway).isEmpty)
            let issue = try SignedTransactions.signed(
                SampleContent.issueId, "730001", accountToken: account.uuidString)
            let coins = try SignedTransactions.signed(
                SampleContent.coinsId, "730002", type: "Consumable", accountToken: account.uuidString)
            for transaction in [issue, coins] {
                let posted = try Self.post("ONE_TIME_CHARGE", transaction: transaction, to: gateway)
                #expect(posted.status == 200, "\(posted.text)")
                #expect(posted.json["status"] as? String == "recorded")
            }
            // Both are in the ledger; the issue (the one with content) is among the account's entitlements.
            #expect(try gateway.ledgerCounts() == .init(purchases: 2, transactions: 2))
            #expect(try Accounts.holdings(owner, in: gateway) == [SampleContent.issueId])
        }

        /// A JWSRenewalInfo for subscription `original`, signed now in `environment`; `more` adds or replaces fields.
        static func renewalInfo(
            _ original: String, environment: String = "Sandbox", more: [String: Any] = [:]
        ) throws -> String {
            let now = Date().timeIntervalSince1970 * 1000
            let fields: [String: Any] = [
                "originalTransactionId": original, "productId": SampleContent.monthlyId,
                "autoRenewProductId": SampleContent.monthlyId, "autoRenewStatus": 1, "signedDate": now,
                "environment": environment, "recentSubscriptionStartDate": now - 86_400_000, "renewalDate": now,
            ]
            return try SignedVectors.mint(fields.merging(more) { $1 })
        }

        /// Item 8 of issue 32: the renewal info inside a subscription notification is verified and what it says
        /// (auto-renewal, why not, billing retry, grace period, price increase) is on the support timeline.
        @Test func aSubscriptionsRenewalInfoIsVerifiedAndOnItsTimeline() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let monthly = try SignedTransactions.signed(
                SampleContent.monthlyId, "740001", type: "Auto-Renewable Subscription", expiresIn: 20)
            let off = try Self.renewalInfo("740001", more: ["autoRenewStatus": 0, "expirationIntent": 1])
            let turnedOff = try Self.post("DID_CHANGE_RENEWAL_STATUS", transaction: monthly, renewal: off, to: gateway)
            #expect(turnedOff.json["status"] as? String == "recorded", "\(turnedOff.text)")
            let grace = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 6 * 86_400).rounded())
            let retrying = try Self.renewalInfo(
                "740001",
                more: [
                    "isInBillingRetryPeriod": true, "gracePeriodExpiresDate": grace.timeIntervalSince1970 * 1000,
                    "priceIncreaseStatus": 0, "autoRenewProductId": "com.example.yearly",
                    "signedDate": Date().timeIntervalSince1970 * 1000 + 1_000,
                ])
            #expect(
                try Self.post("DID_FAIL_TO_RENEW", transaction: monthly, renewal: retrying, to: gateway).status == 200)
            let story = try SupportLookup.lookUp(gateway, ["--transaction-id", "740001"])
            #expect(
                story.output.contains("renewal")
                    && story.output.contains("\(SampleContent.monthlyId): will not renew (the customer turned it off)"),
                "\(story.output)")
            let graceText = grace.formatted(.iso8601)
            #expect(
                story.output.contains(
                    "\(SampleContent.monthlyId): renews into com.example.yearly, billing retry, grace period until "
                        + "\(graceText), price increase not yet agreed"),
                "\(story.output)")

            // Renewal info of another subscription, or signed for another environment, is not this notification's.
            let foreign = try Self.renewalInfo("749999")
            let mismatched = try Self.post("DID_RENEW", transaction: monthly, renewal: foreign, to: gateway)
            #expect(mismatched.status == 400, "\(mismatched.text)")
            let production = try Self.renewalInfo("740001", environment: "Production")
            #expect(try Self.post("DID_RENEW", transaction: monthly, renewal: production, to: gateway).status == 400)
            // Renewal info that is not Apple's is refused like any signed data.
            let forged = String(off.dropLast(4)) + "AAAA"
            #expect(try Self.post("DID_RENEW", transaction: monthly, renewal: forged, to: gateway).status == 422)
        }

        @Test func unverifiableOrMalformedNotificationsAreRefused() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let test = try Self.post("TEST", transaction: nil, to: gateway)
            #expect(test.status == 200, "\(test.text)")
            // A genuine signature over another payload: the signature check refuses it.
            let genuine = try SignedVectors.mint(["notificationType": "TEST", "notificationUUID": "n-1"])
                .split(separator: ".").map(String.init)
            let refund = ["notificationType": "REFUND", "notificationUUID": "n-2"]
            let otherPayload = SignedVectors.base64URL(try JSONSerialization.data(withJSONObject: refund))
            let forgedBody = try JSONSerialization.data(withJSONObject: [
                "signedPayload": [genuine[0], otherPayload, genuine[2]].joined(separator: ".")
            ])
            let forged = try gateway.deployment.request(
                "/v1/notifications/apple", method: "POST", body: Array(forgedBody))
            #expect(forged.status == 422, "\(forged.text)")
            #expect(forged.errorCode == "signature_invalid")
            let notJSON = try gateway.deployment.request(
                "/v1/notifications/apple", method: "POST", body: Array("signedPayload=abc".utf8))
            #expect(notJSON.status == 400)
            #expect(notJSON.errorCode == "bad_request")
            let foreign = try SignedTransactions.signed(SampleContent.issueId, "730001", bundleId: "com.other.app")
            let refused = try Self.post("REFUND", transaction: foreign, to: gateway)
            #expect(refused.errorCode == "bundle_mismatch", "\(refused.text)")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }

        /// Notifications that carry no `data` name their app and environment where Apple's library looks for
        /// them: a renewal extension's `summary`, an external purchase token (Sandbox when its id says so), a
        /// rescinded consent's `appData`; they are checked and recorded like the others, the app's Apple ID too.
        @Test func notificationsWithTheirFactsOutsideDataAreReadWhereApplesLibraryReadsThem() throws {
            let gateway = try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain)
            defer { gateway.stop() }
            func post(_ type: String, _ key: String, _ facts: [String: Any]) throws -> HTTPResponse {
                let payload: [String: Any] = [
                    "notificationType": type, "notificationUUID": UUID().uuidString, key: facts, "version": "2.0",
                    "signedDate": Date().timeIntervalSince1970 * 1000,
                ]
                let body = try JSONSerialization.data(withJSONObject: ["signedPayload": try SignedVectors.mint(payload)]
                )
                return try gateway.deployment.request("/v1/notifications/apple", method: "POST", body: Array(body))
            }
            let app: [String: Any] = ["bundleId": SampleContent.bundleId, "appAppleId": SampleContent.appAppleId]
            let summary = app.merging([
                "environment": "Production", "productId": SampleContent.monthlyId, "requestIdentifier": "r-1",
                "storefrontCountryCodes": ["USA"], "succeededCount": 5, "failedCount": 0,
            ]) { $1 }
            let sandboxToken = app.merging([
                "externalPurchaseId": "SANDBOX_b2158121", "tokenCreationDate": 1_698_148_950_000,
            ]) { $1 }
            let consent = app.merging(["environment": "Sandbox", "signedAppTransactionInfo": "x"]) { $1 }
            for (type, key, facts) in [
                ("RENEWAL_EXTENSION", "summary", summary),
                ("EXTERNAL_PURCHASE_TOKEN", "externalPurchaseToken", sandboxToken),
                ("RESCIND_CONSENT", "appData", consent),
            ] {
                let answer = try post(type, key, facts)
                #expect(answer.status == 200, "\(type): \(answer.text)")
                #expect(answer.json["status"] as? String == "recorded", "\(type): \(answer.text)")
            }
            // A token without SANDBOX is Production's, whose app id is checked; another app is refused.
            let productionToken = sandboxToken.merging(["externalPurchaseId": "b2158121", "appAppleId": 999]) { $1 }
            let foreignId = try post("EXTERNAL_PURCHASE_TOKEN", "externalPurchaseToken", productionToken)
            #expect(foreignId.errorCode == "bundle_mismatch", "\(foreignId.text)")
            let foreignApp = try post(
                "RENEWAL_EXTENSION", "summary", summary.merging(["bundleId": "com.other.app"]) { $1 })
            #expect(foreignApp.errorCode == "bundle_mismatch", "\(foreignApp.text)")
            let unlabelled = try post("RENEWAL_EXTENSION", "summary", app)
            #expect(unlabelled.errorCode == "environment_not_accepted", "\(unlabelled.text)")
            #expect(try gateway.ledgerCounts() == .init(purchases: 0, transactions: 0))
        }

        @Test func productionNotificationsMustCarryTheConfiguredAppAppleId() throws {
            let gateway = try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain)
            defer { gateway.stop() }
            let foreign = try Self.post(
                "TEST", transaction: nil, environment: "Production", appAppleId: 999, to: gateway)
            #expect(foreign.errorCode == "bundle_mismatch", "\(foreign.text)")
            let own = try Self.post("TEST", transaction: nil, environment: "Production", to: gateway)
            #expect(own.status == 200, "\(own.text)")
            // Sandbox notifications carry no checked app id.
            #expect(try Self.post("TEST", transaction: nil, to: gateway).status == 200)
        }
    }
}
