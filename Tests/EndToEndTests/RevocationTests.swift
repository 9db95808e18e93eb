import Crypto
import Foundation
import PurchaseLedger
import Testing

extension EndToEnd {
    /// Apple's refunds as API 1.19 describes them (`revocationType`, `revocationPercentage`) and Family Sharing
    /// (`inAppOwnershipType`), through nginx: a prorated refund of a pack takes back only its share, and revoking
    /// a family member's access never touches the buyer's purchase.
    @Suite struct Revocations {
        /// The transaction `id` of a verify answer.
        static func transaction(_ id: String, in answer: HTTPResponse) -> [String: Any]? {
            (answer.json["transactions"] as? [[String: Any]])?.first { $0["transaction_id"] as? String == id }
        }

        static func refunded(_ type: String, percentage: Int?, family: Bool = false) -> [String: Any] {
            var fields: [String: Any] = [
                "revocationDate": Date().timeIntervalSince1970 * 1000 - 1_000, "revocationReason": 0,
                "revocationType": type,
            ]
            if let percentage { fields["revocationPercentage"] = percentage }
            if family { fields["inAppOwnershipType"] = "FAMILY_SHARED" }
            return fields
        }

        @Test func aProratedRefundOfAPackTakesBackItsShareAndTheRestStands() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let pack: [String: Any] = ["quantity": 4]
            let coins = try SignedTransactions.signed(SampleContent.coinsId, "750001", type: "Consumable", more: pack)
            let bought = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([coins]))
            #expect(bought.status == 200, "\(bought.text)")
            let fresh = try #require(Self.transaction("750001", in: bought))
            #expect(fresh["quantity"] as? Int == 4)
            #expect(fresh["revocation"] is NSNull)
            #expect(fresh["family_shared"] as? Bool == false)

            // Apple refunds half the pack: two of the four coins.
            let half = try SignedTransactions.signed(
                SampleContent.coinsId, "750001", type: "Consumable",
                more: pack.merging(Self.refunded("REFUND_PRORATED", percentage: 50_000)) { $1 })
            let notified = try Notifications.post("REFUND", transaction: half, to: gateway)
            #expect(notified.json["status"] as? String == "recorded", "\(notified.text)")
            let after = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([half]))
            let refunded = try #require(Self.transaction("750001", in: after))
            #expect(refunded["cancellation_date"] is NSNull, "the rest of the pack is still the buyer's")
            let revocation = try #require(refunded["revocation"] as? [String: Any])
            #expect(revocation["quantity"] as? Int == 2)
            #expect(revocation["type"] as? String == "REFUND_PRORATED")
            #expect(revocation["percentage_milliunits"] as? Int == 50_000)
            #expect(revocation["date"] is String)

            // One of three coins refunded is about 33.333%: one coin.
            let three = try SignedTransactions.signed(
                SampleContent.coinsId, "750002", type: "Consumable",
                more: ["quantity": 3].merging(Self.refunded("REFUND_PRORATED", percentage: 33_333)) { $1 })
            let third = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([three]))
            #expect((Self.transaction("750002", in: third)?["revocation"] as? [String: Any])?["quantity"] as? Int == 1)

            let story = try SupportLookup.lookUp(gateway, ["--transaction-id", "750001"])
            #expect(story.status == 0, "\(story.output)")
            #expect(
                story.output.contains(
                    "\(SampleContent.coinsId): 2 of 4 items refunded (REFUND_PRORATED, 50%), transaction 750001"),
                "\(story.output)")
        }

        @Test func aProratedRefundOfSomethingThatIsNotAPackTakesItAllBack() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let issue = try SignedTransactions.signed(SampleContent.issueId, "750101")
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([issue]))
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            let refund = try SignedTransactions.signed(
                SampleContent.issueId, "750101", more: Self.refunded("REFUND_PRORATED", percentage: 40_000))
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 403)
            let answer = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([refund]))
            #expect(Self.transaction("750101", in: answer)?["cancellation_date"] is String)
            #expect(answer.entitlementProducts.isEmpty)
            let story = try SupportLookup.lookUp(gateway, ["--transaction-id", "750101"])
            #expect(
                story.output.contains("\(SampleContent.issueId): refunded (REFUND_PRORATED, 40%), transaction 750101"),
                "\(story.output)")
        }

        /// The hardest case: the family member's access under the buyer's own original transaction.
        @Test func revokingAFamilyMembersAccessLeavesTheBuyersPurchase() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let family: [String: Any] = ["inAppOwnershipType": "FAMILY_SHARED"]
            let buyer = try SignedTransactions.signed(SampleContent.issueId, "760001")
            let member = try SignedTransactions.signed(
                SampleContent.issueId, "760002", original: "760001", more: family)
            var tokens: [String] = []
            for signed in [buyer, member] {
                let verified = try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: SignedTransactions.body([signed]))
                #expect(verified.status == 200, "\(verified.text)")
                tokens.append(try #require(verified.downloadToken(for: SampleContent.issueId)))
            }
            let memberAnswer = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([member]))
            #expect(Self.transaction("760002", in: memberAnswer)?["family_shared"] as? Bool == true)
            #expect(try gateway.ledgerCounts() == .init(purchases: 2, transactions: 2))
            for token in tokens { #expect(try gateway.download(SampleContent.issueId, token: token).status == 200) }

            let revoked = try SignedTransactions.signed(
                SampleContent.issueId, "760002", original: "760001",
                more: Self.refunded("FAMILY_REVOKE", percentage: nil, family: true))
            let notified = try Notifications.post("REVOKE", transaction: revoked, to: gateway)
            #expect(notified.json["status"] as? String == "recorded", "\(notified.text)")

            // The member's token and the member's saved transaction open nothing; the buyer's both still do.
            #expect(try gateway.download(SampleContent.issueId, token: tokens[1]).status == 403)
            let post = { (signed: String) in
                try gateway.deployment.request(
                    "/v1/download/\(SampleContent.issueId)", method: "POST", body: SignedTransactions.body([signed]))
            }
            #expect(try post(member).status == 403)
            #expect(try gateway.download(SampleContent.issueId, token: tokens[0]).status == 200)
            #expect(SampleContent.sha256(try post(buyer).body) == SampleContent.issueSHA256)
            let story = try SupportLookup.lookUp(gateway, ["--transaction-id", "760002"])
            #expect(story.output.contains("transaction 760002 (a family member's, through Family Sharing)"))
            #expect(
                story.output.contains(
                    "\(SampleContent.issueId): Family Sharing access revoked (FAMILY_REVOKE), transaction 760002"),
                "\(story.output)")
        }

        @Test func familySharingGrantsOnlyTheTypesTheConfigAllows() throws {
            var apple = VerifyDeployment.trustingTestChain
            apple["environments"] = "[Production, Sandbox]"
            let gateway = try VerifyDeployment(
                apple: apple, delivery: "stream",
                extra: "family_sharing:\n  grants_by_type: { non-consumable: false, auto-renewable: true }\n")
            defer { gateway.stop() }
            let family: [String: Any] = ["inAppOwnershipType": "FAMILY_SHARED"]
            let issue = try SignedTransactions.signed(SampleContent.issueId, "770001", more: family)
            let monthly = try SignedTransactions.signed(
                SampleContent.monthlyId, "770002", type: "Auto-Renewable Subscription", expiresIn: 20, more: family)
            let verified = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([issue, monthly]))
            #expect(verified.status == 200, "\(verified.text)")
            #expect(verified.entitlementProducts == [SampleContent.monthlyId])
            #expect(try gateway.ledgerCounts() == .init(purchases: 2, transactions: 2), "recorded all the same")
            let download = try gateway.deployment.request(
                "/v1/download/\(SampleContent.issueId)", method: "POST", body: SignedTransactions.body([issue]))
            #expect(download.errorCode == "not_entitled")
            // The buyer's own purchase of the same type is not affected.
            let bought = try SignedTransactions.signed(SampleContent.issueId, "770003")
            let own = try gateway.deployment.request(
                "/v1/verify", method: "POST", body: SignedTransactions.body([bought]))
            #expect(own.entitlementProducts == [SampleContent.issueId])
        }

        /// Apple refuses Set App Account Token for a family member's access (4000185), so it is never asked.
        @Test func aFamilyMembersAccessIsNeverGivenAnAppAccountToken() throws {
            let gateway = try Accounts.gateway(
                policy: "transfer", serverAPIKey: P256.Signing.PrivateKey(),
                serverAPIExtra: ", set_app_account_token: true")
            defer { gateway.stop() }
            let (shared, own) = (ServerAPIRoutes.id(), ServerAPIRoutes.id())
            var member = ServerAPIRoutes.purchase(SampleContent.issueId, shared, customer: "family")
            member["ownership"] = "FAMILY_SHARED"
            try gateway.appStore.addAPI([member, ServerAPIRoutes.purchase(SampleContent.issueId, own, customer: "me")])
            for id in [shared, own] {
                let verified = try gateway.deployment.request(
                    "/v1/verify", method: "POST", headers: [Accounts.asserting(UUID().uuidString.lowercased())],
                    body: ServerAPIRoutes.body(id))
                #expect(verified.status == 200, "\(verified.text)")
            }
            // Calls go out in order from one queue: once the later binding's call arrived, the earlier one would
            // have.
            let ownPath = "/inApps/v1/transactions/\(own)/appAccountToken"
            var calls: [String] = []
            _ = ManagedProcess.poll(for: .seconds(10)) {
                calls = ((try? gateway.appStore.apiCalls()) ?? []).compactMap { $0["path"] as? String }
                return calls.contains(ownPath)
            }
            #expect(calls.filter { $0.hasSuffix("/appAccountToken") } == [ownPath])
        }
    }
}
