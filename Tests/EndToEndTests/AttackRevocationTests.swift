import Foundation
import PurchaseLedger
import SignedTestData
import Testing

extension EndToEnd {
    /// Attacks on Family Sharing revocations, prorated refunds, app transactions and renewal info, through nginx,
    /// with Apple's genuine signed data only (the attacker's own, captured, or replayed). Each test asserts the
    /// property; a failing test is an attack that got through.
    @Suite struct AttackRevocations {
        static var family: [String: Any] { ["inAppOwnershipType": "FAMILY_SHARED"] }
        static var now: Double { Date().timeIntervalSince1970 * 1000 }

        static func revoke(family: Bool = true, type: String = "FAMILY_REVOKE", percentage: Int? = nil)
            -> [String: Any]
        {
            Revocations.refunded(type, percentage: percentage, family: family)
        }

        /// A signed notification body, kept so it can be replayed byte for byte.
        static func notification(
            _ type: String, transaction: String?, renewal: String? = nil, uuid: String = UUID().uuidString,
            environment: String = "Sandbox", signedAt: Double = now
        ) throws -> [UInt8] {
            var data: [String: Any] = ["bundleId": SampleContent.bundleId, "environment": environment]
            if environment == "Production" { data["appAppleId"] = SampleContent.appAppleId }
            if let renewal { data["signedRenewalInfo"] = renewal }
            if let transaction { data["signedTransactionInfo"] = transaction }
            let payload: [String: Any] = [
                "notificationType": type, "notificationUUID": uuid, "data": data, "version": "2.0",
                "signedDate": signedAt,
            ]
            return Array(try JSONSerialization.data(withJSONObject: ["signedPayload": try SignedVectors.mint(payload)]))
        }

        static func send(_ body: [UInt8], to gateway: VerifyDeployment) throws -> HTTPResponse {
            try gateway.deployment.request("/v1/notifications/apple", method: "POST", body: body)
        }

        static func post(_ route: String, _ jws: [String], to gateway: VerifyDeployment) throws -> HTTPResponse {
            try gateway.deployment.request(route, method: "POST", body: SignedTransactions.body(jws))
        }

        static func postDownload(_ jws: String, to gateway: VerifyDeployment) throws -> HTTPResponse {
            try Self.post("/v1/download/\(SampleContent.issueId)", [jws], to: gateway)
        }

        /// Rows of `table` in the gateway's SQLite ledger.
        static func rows(_ table: String, in gateway: VerifyDeployment) throws -> Int {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = [gateway.ledgerPath, "SELECT count(*) FROM \(table);"]
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            let out = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Int(String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }

        static func accountsGateway(policy: String, familyGrants: String? = nil) throws -> VerifyDeployment {
            let grants = familyGrants.map { "family_sharing:\n  grants_by_type: \($0)\n" } ?? ""
            return try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, delivery: "stream",
                extra: """
                    accounts:
                      asserted_by: [web-server, signed]
                      secret: \(Accounts.secret)
                      restore_policy: \(policy)
                    \(grants)
                    """)
        }

        // MARK: 1. Family Sharing

        /// The member's saved transaction, re-verified, restored or posted to download, and the member's old
        /// token, all stay shut after REVOKE; the buyer re-verifying (same original) reopens nothing for the member.
        @Test func aRevokedMemberRegainsNothingByAnyRouteAndTheBuyerKeepsEverything() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let buyer = try SignedTransactions.signed(SampleContent.issueId, "900001")
            let member = try SignedTransactions.signed(
                SampleContent.issueId, "900002", original: "900001", more: Self.family)
            var tokens: [String] = []
            for signed in [buyer, member] {
                let verified = try Self.post("/v1/verify", [signed], to: gateway)
                tokens.append(try #require(verified.downloadToken(for: SampleContent.issueId), "\(verified.text)"))
            }
            let revoked = try SignedTransactions.signed(
                SampleContent.issueId, "900002", original: "900001", more: Self.revoke())
            #expect(try Notifications.post("REVOKE", transaction: revoked, to: gateway).status == 200)

            let reverified = try Self.post("/v1/verify", [member], to: gateway)
            // (The answer may still list the buyer's entitlement under the shared original; what counts is that
            // nothing the member is handed downloads.)
            if let fresh = reverified.downloadToken(for: SampleContent.issueId) {
                let opened = try gateway.download(SampleContent.issueId, token: fresh)
                #expect(opened.status == 403, "the revoked member's NEW token from verify downloads: \(opened.status)")
            }
            let restored = try Self.post("/v1/restore-sync", [member], to: gateway)
            if let fresh = restored.downloadToken(for: SampleContent.issueId) {
                let opened = try gateway.download(SampleContent.issueId, token: fresh)
                #expect(opened.status == 403, "the revoked member's NEW token from restore downloads: \(opened.status)")
            }
            // Both together: the buyer's transaction beside the member's must not count for the member.
            #expect(try Self.postDownload(member, to: gateway).status == 403)
            #expect(try gateway.download(SampleContent.issueId, token: tokens[1]).status == 403)
            // The buyer re-verifies after the revoke: still the buyer's, and the member stays shut out.
            let own = try Self.post("/v1/restore-sync", [buyer], to: gateway)
            #expect(own.entitlementProducts.contains(SampleContent.issueId), "buyer: \(own.text)")
            #expect(try gateway.download(SampleContent.issueId, token: tokens[0]).status == 200)
            #expect(try Self.postDownload(buyer, to: gateway).status == 200)
            let memberToken = try gateway.download(SampleContent.issueId, token: tokens[1])
            #expect(memberToken.status == 403, "member's token after buyer re-verify: \(memberToken.status)")
            let memberPost = try Self.postDownload(member, to: gateway)
            #expect(memberPost.status == 403, "member's saved JWS after buyer re-verify: \(memberPost.status)")
        }

        /// REVOKE arrives before the member ever reached the gateway: the buyer is untouched, and the member's
        /// saved (pre-revoke) transaction presented later opens nothing.
        @Test func aRevokeBeforeTheMemberIsSeenStillShutsTheMemberOutAndSparesTheBuyer() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let buyer = try SignedTransactions.signed(SampleContent.issueId, "901001")
            let member = try SignedTransactions.signed(
                SampleContent.issueId, "901002", original: "901001", more: Self.family)
            let bought = try Self.post("/v1/verify", [buyer], to: gateway)
            let token = try #require(bought.downloadToken(for: SampleContent.issueId))
            let revoked = try SignedTransactions.signed(
                SampleContent.issueId, "901002", original: "901001", more: Self.revoke())
            #expect(try Notifications.post("REVOKE", transaction: revoked, to: gateway).status == 200)
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200, "buyer's token")
            let late = try Self.post("/v1/verify", [member], to: gateway)
            if let fresh = late.downloadToken(for: SampleContent.issueId) {
                let opened = try gateway.download(SampleContent.issueId, token: fresh)
                #expect(opened.status == 403, "the revoked member's NEW token from verify downloads: \(opened.status)")
            }
            let download = try Self.postDownload(member, to: gateway)
            #expect(download.status == 403, "member's saved JWS: \(download.status)")
            #expect(try Self.postDownload(buyer, to: gateway).status == 200)
        }

        /// The member's app account (claimed on the shared original) must hold nothing after REVOKE; the buyer's
        /// account keeps the purchase.
        @Test(arguments: [("share", false), ("transfer", false), ("keep", false), ("keep", true), ("share", true)])
        func aRevokedMembersAccountHoldsNothingAndTheBuyersAccountKeepsIt(policy: String, memberFirst: Bool) throws {
            let gateway = try Self.accountsGateway(policy: policy)
            defer { gateway.stop() }
            let buyer = try SignedTransactions.signed(SampleContent.issueId, "902001")
            let member = try SignedTransactions.signed(
                SampleContent.issueId, "902002", original: "902001", more: Self.family)
            var shared = HTTPResponse?.none
            if memberFirst { shared = try Accounts.post("verify", [member], as: "bob", to: gateway) }
            let bought = try Accounts.post("verify", [buyer], as: "alice", to: gateway)
            if !memberFirst { shared = try Accounts.post("verify", [member], as: "bob", to: gateway) }
            let aliceBefore = try Accounts.holdings("alice", in: gateway)
            let bobBefore = try Accounts.holdings("bob", in: gateway)
            let revoked = try SignedTransactions.signed(
                SampleContent.issueId, "902002", original: "902001", more: Self.revoke())
            #expect(try Notifications.post("REVOKE", transaction: revoked, to: gateway).status == 200)
            let bob = try Accounts.holdings("bob", in: gateway)
            #expect(
                bob.isEmpty,
                "bob (member) after revoke: \(bob); before: \(bobBefore); member verify \(shared?.status ?? 0), buyer verify \(bought.status)"
            )
            let held = try gateway.deployment.request("/v1/entitlements", headers: [Accounts.asserting("bob")])
            if let fresh = held.downloadToken(for: SampleContent.issueId) {
                let opened = try gateway.download(SampleContent.issueId, token: fresh)
                #expect(opened.status == 403, "bob's /v1/entitlements token downloads: \(opened.status)")
            }
            // A restore answers from the signed data sent (the member's copy from before the revoke); what it
            // hands out must open nothing.
            let restored = try Accounts.post("restore-sync", [member], as: "bob", to: gateway)
            if let fresh = restored.downloadToken(for: SampleContent.issueId) {
                let opened = try gateway.download(SampleContent.issueId, token: fresh)
                #expect(opened.status == 403, "bob's restore token downloads: \(opened.status)")
            }
            #expect(try Accounts.holdings("bob", in: gateway).isEmpty)
            let alice = try Accounts.holdings("alice", in: gateway)
            #expect(alice == [SampleContent.issueId], "alice (buyer) after revoke: \(alice); before: \(aliceBefore)")
            // The buyer restoring after the revoke must get it back for her account.
            let back = try Accounts.post("restore-sync", [buyer], as: "alice", to: gateway)
            let aliceAfter = try Accounts.holdings("alice", in: gateway)
            #expect(
                aliceAfter == [SampleContent.issueId],
                "alice after her own restore: \(aliceAfter); \(back.status) \(back.text)")
        }

        /// grants_by_type non-consumable: false: a member never gets the issue, by any route, even when the
        /// member's transaction shares the buyer's original, carries an appAccountToken, or is restored for an
        /// account.
        @Test func aTypeTheConfigDoesNotShareNeverEntitlesAMemberByAnyRoute() throws {
            let gateway = try Self.accountsGateway(
                policy: "share", familyGrants: "{ non-consumable: false, auto-renewable: true }")
            defer { gateway.stop() }
            let token = UUID().uuidString.lowercased()
            // The member's own original, with Apple's appAccountToken.
            let alone = try SignedTransactions.signed(
                SampleContent.issueId, "903001", accountToken: token, more: Self.family)
            let verified = try Self.post("/v1/verify", [alone], to: gateway)
            #expect(verified.status == 200, "\(verified.text)")
            #expect(!verified.entitlementProducts.contains(SampleContent.issueId), "verify: \(verified.text)")
            #expect(try Accounts.holdings(token, in: gateway).isEmpty, "appAccountToken account")
            let restored = try Accounts.post("restore-sync", [alone], as: "carol", to: gateway)
            #expect(!restored.entitlementProducts.contains(SampleContent.issueId), "restore: \(restored.text)")
            #expect(try Accounts.holdings("carol", in: gateway).isEmpty)
            #expect(try Self.postDownload(alone, to: gateway).status == 403)

            // Under the buyer's original, the buyer recorded first.
            let buyer = try SignedTransactions.signed(SampleContent.issueId, "903101")
            let member = try SignedTransactions.signed(
                SampleContent.issueId, "903102", original: "903101", more: Self.family)
            #expect(try Accounts.post("verify", [buyer], as: "alice", to: gateway).status == 200)
            let memberVerify = try Accounts.post("verify", [member], as: "dave", to: gateway)
            #expect(
                !memberVerify.entitlementProducts.contains(SampleContent.issueId), "member verify: \(memberVerify.text)"
            )
            let daveHolds = try Accounts.holdings("dave", in: gateway)
            #expect(daveHolds.isEmpty, "dave (member) holds \(daveHolds)")
            let held = try gateway.deployment.request("/v1/entitlements", headers: [Accounts.asserting("dave")])
            if let fresh = held.downloadToken(for: SampleContent.issueId) {
                let opened = try gateway.download(SampleContent.issueId, token: fresh)
                #expect(opened.status == 403, "dave's /v1/entitlements token downloads: \(opened.status)")
            }
            let anonymous = try Self.post("/v1/restore-sync", [member], to: gateway)
            #expect(!anonymous.entitlementProducts.contains(SampleContent.issueId), "member restore: \(anonymous.text)")
            let download = try Self.postDownload(member, to: gateway)
            #expect(download.status == 403, "member POST download: \(download.status)")
            #expect(try Accounts.holdings("alice", in: gateway) == [SampleContent.issueId])
        }

        /// After REVOKE, the buyer's own refund and its reversal (same original) must not reopen the member.
        @Test func aReversalOfTheBuyersRefundDoesNotUndoTheMembersRevoke() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let buyer = try SignedTransactions.signed(SampleContent.issueId, "904001")
            let member = try SignedTransactions.signed(
                SampleContent.issueId, "904002", original: "904001", more: Self.family)
            var tokens: [String] = []
            for signed in [buyer, member] {
                let verified = try Self.post("/v1/verify", [signed], to: gateway)
                tokens.append(try #require(verified.downloadToken(for: SampleContent.issueId)))
            }
            let revoked = try SignedTransactions.signed(
                SampleContent.issueId, "904002", original: "904001", more: Self.revoke())
            #expect(try Notifications.post("REVOKE", transaction: revoked, to: gateway).status == 200)
            let refund = try SignedTransactions.signed(
                SampleContent.issueId, "904001", more: Self.revoke(family: false, type: "REFUND_FULL"))
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)
            #expect(try gateway.download(SampleContent.issueId, token: tokens[0]).status == 403)
            let back = try SignedTransactions.signed(SampleContent.issueId, "904001")
            #expect(try Notifications.post("REFUND_REVERSED", transaction: back, to: gateway).status == 200)
            #expect(try gateway.download(SampleContent.issueId, token: tokens[0]).status == 200, "buyer")
            let memberToken = try gateway.download(SampleContent.issueId, token: tokens[1])
            #expect(memberToken.status == 403, "member token after buyer's reversal: \(memberToken.status)")
            let memberPost = try Self.postDownload(member, to: gateway)
            #expect(memberPost.status == 403, "member JWS after buyer's reversal: \(memberPost.status)")
        }

        /// A family-shared subscription of the member's own original, held by an account: REVOKE, then Apple's
        /// delayed retry of an older notification carrying the member's pre-revoke transaction, then the member's
        /// saved JWS restored: the account holds nothing.
        @Test func anOlderNotificationArrivingAfterTheRevokeDoesNotRestoreTheMember() throws {
            let gateway = try Self.accountsGateway(policy: "share")
            defer { gateway.stop() }
            let sub = "Auto-Renewable Subscription"
            let earlier = Self.now - 3_600_000
            let member = try SignedTransactions.signed(
                SampleContent.monthlyId, "905002", type: sub, expiresIn: 20,
                more: Self.family.merging(["signedDate": earlier]) { $1 })
            #expect(
                try Accounts.post("verify", [member], as: "erin", to: gateway).entitlementProducts == [
                    SampleContent.monthlyId
                ])
            let delayed = try Self.notification("DID_RENEW", transaction: member, signedAt: earlier)
            let revoked = try SignedTransactions.signed(
                SampleContent.monthlyId, "905002", type: sub, expiresIn: 20, more: Self.revoke())
            #expect(try Notifications.post("REVOKE", transaction: revoked, to: gateway).status == 200)
            let afterRevoke = try Accounts.holdings("erin", in: gateway)
            #expect(afterRevoke.isEmpty, "after REVOKE: \(afterRevoke)")
            #expect(try Self.send(delayed, to: gateway).status == 200)
            let afterDelayed = try Accounts.holdings("erin", in: gateway)
            #expect(afterDelayed.isEmpty, "after the delayed older DID_RENEW: \(afterDelayed)")
            let again = try Accounts.post("restore-sync", [member], as: "erin", to: gateway)
            let afterRestore = try Accounts.holdings("erin", in: gateway)
            #expect(afterRestore.isEmpty, "after restoring the saved JWS: \(afterRestore); answer \(again.text)")
        }

        // MARK: 2. Prorated refunds

        /// The ledger's refund line for transaction `id`.
        static func refundLine(_ id: String, in gateway: VerifyDeployment) throws -> String {
            let story = try SupportLookup.lookUp(gateway, ["--transaction-id", id]).output
            return story.split(separator: "\n").filter { $0.contains("refund") }.joined(separator: " | ")
        }

        /// Half a pack refunded; a delayed older REFUND (a quarter), a delayed ONE_TIME_CHARGE, or the pack's older
        /// JWS (unrefunded, quarter-refunded) replayed through verify and restore never shrinks what was taken back.
        @Test func olderSignedDataNeverShrinksAProratedRefundOfAPack() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let earlier = Self.now - 3_600_000
            let pack: [String: Any] = ["quantity": 4]
            let coins = try SignedTransactions.signed(
                SampleContent.coinsId, "910001", type: "Consumable", more: pack.merging(["signedDate": earlier]) { $1 })
            #expect(try Self.post("/v1/verify", [coins], to: gateway).status == 200)
            let quarter = try SignedTransactions.signed(
                SampleContent.coinsId, "910001", type: "Consumable",
                more: pack.merging(Self.revoke(family: false, type: "REFUND_PRORATED", percentage: 25_000)) { $1 }
                    .merging(["signedDate": earlier + 1_000]) { $1 })
            let half = try SignedTransactions.signed(
                SampleContent.coinsId, "910001", type: "Consumable",
                more: pack.merging(Self.revoke(family: false, type: "REFUND_PRORATED", percentage: 50_000)) { $1 })
            let lateQuarter = try Self.notification("REFUND", transaction: quarter, signedAt: earlier + 1_000)
            let lateCharge = try Self.notification("ONE_TIME_CHARGE", transaction: coins, signedAt: earlier)
            #expect(try Notifications.post("REFUND", transaction: half, to: gateway).status == 200)
            let expected = "2 of 4 items refunded (REFUND_PRORATED, 50%)"
            #expect(try Self.refundLine("910001", in: gateway).contains(expected))
            let steps: [(String, () throws -> Void)] = [
                ("verify with the unrefunded JWS", { _ = try Self.post("/v1/verify", [coins], to: gateway) }),
                ("restore with the unrefunded JWS", { _ = try Self.post("/v1/restore-sync", [coins], to: gateway) }),
                ("delayed ONE_TIME_CHARGE", { _ = try Self.send(lateCharge, to: gateway) }),
                ("delayed older REFUND (25%)", { _ = try Self.send(lateQuarter, to: gateway) }),
                ("verify with the quarter-refunded JWS", { _ = try Self.post("/v1/verify", [quarter], to: gateway) }),
                (
                    "restore with the quarter-refunded JWS",
                    {
                        _ = try Self.post("/v1/restore-sync", [quarter], to: gateway)
                    }
                ),
            ]
            for (name, step) in steps {
                try step()
                let line = try Self.refundLine("910001", in: gateway)
                #expect(line.contains(expected) && !line.contains("1 of 4"), "after \(name): \(line)")
                if !line.contains(expected) { break }
            }
        }

        /// A consumable of one item is not a pack: a prorated refund takes it all back.
        @Test func aProratedRefundOfASingleConsumableTakesItAllBack() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let one = try SignedTransactions.signed(SampleContent.coinsId, "911001", type: "Consumable")
            #expect(try Self.post("/v1/verify", [one], to: gateway).status == 200)
            let refund = try SignedTransactions.signed(
                SampleContent.coinsId, "911001", type: "Consumable",
                more: Self.revoke(family: false, type: "REFUND_PRORATED", percentage: 40_000))
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)
            let answer = try Self.post("/v1/verify", [refund], to: gateway)
            let transaction = Revocations.transaction("911001", in: answer)
            #expect(transaction?["cancellation_date"] is String, "\(answer.text)")
            #expect((transaction?["revocation"] as? [String: Any])?["quantity"] as? Int == 1, "\(answer.text)")
        }

        /// A non-consumable refunded (full, reversed, then prorated) is gone whole; the pre-refund JWS, another
        /// transaction under the same original, a delayed older notification, and the old REFUND_REVERSED
        /// replayed byte for byte never reopen it.
        @Test func aRefundedIssueCannotBeRegainedWithOlderSignedDataOrReplayedReversals() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let earlier = Self.now - 3_600_000
            let issue = try SignedTransactions.signed(SampleContent.issueId, "912001", more: ["signedDate": earlier])
            let sibling = try SignedTransactions.signed(
                SampleContent.issueId, "912002", original: "912001", more: ["signedDate": earlier])
            let verified = try Self.post("/v1/verify", [issue], to: gateway)
            let token = try #require(verified.downloadToken(for: SampleContent.issueId))
            let full = Self.revoke(family: false, type: "REFUND_FULL")
            let firstRefund = try SignedTransactions.signed(
                SampleContent.issueId, "912001", more: full.merging(["signedDate": earlier + 1_000]) { $1 })
            let refundBody = try Self.notification("REFUND", transaction: firstRefund, signedAt: earlier + 1_000)
            #expect(try Self.send(refundBody, to: gateway).status == 200)
            let reversed = try SignedTransactions.signed(
                SampleContent.issueId, "912001", more: ["signedDate": earlier + 2_000])
            let reversal = try Self.notification("REFUND_REVERSED", transaction: reversed, signedAt: earlier + 2_000)
            #expect(try Self.send(reversal, to: gateway).status == 200)
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 200)
            // Refunded again, prorated this time: all of it.
            let prorated = try SignedTransactions.signed(
                SampleContent.issueId, "912001",
                more: Self.revoke(family: false, type: "REFUND_PRORATED", percentage: 30_000))
            #expect(try Notifications.post("REFUND", transaction: prorated, to: gateway).status == 200)
            #expect(try gateway.download(SampleContent.issueId, token: token).status == 403)

            func shut(_ after: String) throws {
                let byToken = try gateway.download(SampleContent.issueId, token: token).status
                let byJWS = try Self.postDownload(issue, to: gateway).status
                #expect(byToken == 403 && byJWS == 403, "after \(after): token \(byToken), saved JWS \(byJWS)")
            }
            let replayed = try Self.send(reversal, to: gateway)
            #expect(replayed.json["status"] as? String == "duplicate", "\(replayed.text)")
            try shut("replaying the old REFUND_REVERSED")
            _ = try Self.send(refundBody, to: gateway)
            try shut("replaying the old REFUND")
            let delayed = try Self.notification("ONE_TIME_CHARGE", transaction: issue, signedAt: earlier)
            _ = try Self.send(delayed, to: gateway)
            try shut("a delayed older ONE_TIME_CHARGE")
            for (name, jws) in [("pre-refund", issue), ("same-original sibling", sibling), ("reversed", reversed)] {
                let restore = try Self.post("/v1/restore-sync", [jws], to: gateway)
                if let fresh = restore.downloadToken(for: SampleContent.issueId) {
                    let opened = try gateway.download(SampleContent.issueId, token: fresh).status
                    #expect(opened == 403, "restore with the \(name) JWS gave a token that downloads: \(opened)")
                }
                let download = try Self.postDownload(jws, to: gateway).status
                #expect(download == 403, "POST download with the \(name) JWS: \(download)")
                try shut("the \(name) JWS")
            }
        }

        /// A subscription refunded in part is gone whole, for its account; its pre-refund JWS does not bring it
        /// back.
        @Test func aProratedRefundOfASubscriptionTakesItAllBack() throws {
            let gateway = try Self.accountsGateway(policy: "share")
            defer { gateway.stop() }
            let sub = "Auto-Renewable Subscription"
            let monthly = try SignedTransactions.signed(
                SampleContent.monthlyId, "913001", type: sub, expiresIn: 20,
                more: ["signedDate": Self.now - 3_600_000])
            #expect(
                try Accounts.post("verify", [monthly], as: "frank", to: gateway).entitlementProducts == [
                    SampleContent.monthlyId
                ])
            let refund = try SignedTransactions.signed(
                SampleContent.monthlyId, "913001", type: sub, expiresIn: 20,
                more: Self.revoke(family: false, type: "REFUND_PRORATED", percentage: 50_000))
            #expect(try Notifications.post("REFUND", transaction: refund, to: gateway).status == 200)
            #expect(try Accounts.holdings("frank", in: gateway).isEmpty, "right after the refund")
            for route in ["verify", "restore-sync"] {
                _ = try Accounts.post(route, [monthly], as: "frank", to: gateway)
                let held = try Accounts.holdings("frank", in: gateway)
                #expect(held.isEmpty, "after \(route) with the pre-refund JWS: \(held)")
            }
        }

        // MARK: 3. App transactions

        /// The app transaction must agree with every transaction that carries one, not only the first.
        @Test func anotherCustomersAppTransactionIsRefusedWhereverTheCarryingTransactionIs() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let (mine, victim) = ("704000000000000901", "704000000000000902")
            let plain = try SignedTransactions.signed(SampleContent.issueId, "920001")
            let carrying = try SignedTransactions.signed(
                SampleContent.monthlyId, "920002", type: "Auto-Renewable Subscription", expiresIn: 20,
                more: ["appTransactionId": mine])
            let app = try AppTransactions.appTransaction(victim)
            for order in [[plain, carrying], [carrying, plain]] {
                let answer = try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: AppTransactions.body(order, app: app))
                #expect(answer.status == 400, "\(answer.text)")
            }
            let story = try SupportLookup.lookUp(gateway, ["--app-transaction-id", victim])
            #expect(!story.output.contains("920001") && !story.output.contains("920002"), "\(story.output)")
        }

        /// A transaction already known under customer X is not moved under Y by sending it (or an older copy
        /// without appTransactionId) beside Y's genuine app transaction.
        @Test func aKnownTransactionIsNotRecordedUnderAnotherCustomersAppTransaction() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let (victim, attacker) = ("704000000000000911", "704000000000000912")
            // The victim's purchase, recorded with the victim's app transaction.
            let first = try SignedTransactions.signed(SampleContent.issueId, "921001")
            let recorded = try gateway.deployment.request(
                "/v1/verify", method: "POST",
                body: AppTransactions.body([first], app: try AppTransactions.appTransaction(victim)))
            #expect(recorded.status == 200, "\(recorded.text)")
            // The victim's newer purchase, carrying its app transaction; its older copy did not.
            let older = try SignedTransactions.signed(
                SampleContent.monthlyId, "921002", type: "Auto-Renewable Subscription", expiresIn: 20,
                more: ["signedDate": Self.now - 3_600_000])
            let newer = try SignedTransactions.signed(
                SampleContent.monthlyId, "921002", type: "Auto-Renewable Subscription", expiresIn: 20,
                more: ["appTransactionId": victim])
            #expect(try Self.post("/v1/verify", [newer], to: gateway).status == 200)
            // The attacker sends the captured copies beside their own app transaction.
            let theirs = try AppTransactions.appTransaction(attacker)
            // The answer echoes the pair sent (Apple signed each, not the pair); the ledger, which support reads,
            // keeps what it knew.
            for jws in [first, older] {
                let hijack = try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: AppTransactions.body([jws], app: theirs))
                #expect(hijack.status == 200, "\(hijack.text)")
            }
            let story = try SupportLookup.lookUp(gateway, ["--app-transaction-id", attacker])
            #expect(!story.output.contains("921001") && !story.output.contains("921002"), "\(story.output)")
            let victims = try SupportLookup.lookUp(gateway, ["--app-transaction-id", victim])
            #expect(victims.output.contains("921001") && victims.output.contains("921002"), "\(victims.output)")
        }

        /// Production: another app's Apple ID or none; another environment; signed data that is not an
        /// AppTransaction (renewal info, a notification).
        @Test func appTransactionsOfAnotherAppOrEnvironmentOrKindAreRefused() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let customer = "704000000000000931"
            let production = try SignedTransactions.signed(
                SampleContent.issueId, "930001", more: ["environment": "Production"])
            let sandbox = try SignedTransactions.signed(SampleContent.issueId, "930002")
            func post(_ transactions: [String], _ app: String) throws -> HTTPResponse {
                try gateway.deployment.request(
                    "/v1/verify", method: "POST", body: AppTransactions.body(transactions, app: app))
            }
            let otherId = try post(
                [production],
                try AppTransactions.appTransaction(customer, environment: "Production", more: ["appAppleId": 999]))
            #expect(otherId.errorCode == "bundle_mismatch", "other appAppleId: \(otherId.text)")
            var noId =
                try JSONSerialization.jsonObject(
                    with: Data(base64URL: try AppTransactions.appTransaction(customer, environment: "Production")))
                as? [String: Any] ?? [:]
            noId["appAppleId"] = nil
            let missing = try post([production], try SignedVectors.mint(noId))
            #expect(missing.status != 200, "Production without appAppleId: \(missing.text)")
            let xcode = try post([sandbox], try AppTransactions.appTransaction(customer, environment: "Xcode"))
            #expect(xcode.status == 400 || xcode.status == 422, "Xcode app transaction: \(xcode.text)")
            let sandboxApp = try post([production], try AppTransactions.appTransaction(customer))
            #expect(sandboxApp.status == 400, "Sandbox app transaction, Production purchase: \(sandboxApp.text)")
            let renewal = try Notifications.renewalInfo(
                "930002", more: ["appTransactionId": customer])
            let renewalAsApp = try post([sandbox], renewal)
            #expect(renewalAsApp.status == 400 || renewalAsApp.status == 422, "renewal info: \(renewalAsApp.text)")
            let payload: [String: Any] = [
                "notificationType": "TEST", "notificationUUID": UUID().uuidString, "version": "2.0",
                "signedDate": Self.now,
                "data": [
                    "bundleId": SampleContent.bundleId, "environment": "Sandbox",
                    "appAppleId": SampleContent.appAppleId,
                ],
            ]
            let notificationAsApp = try post([sandbox], try SignedVectors.mint(payload))
            #expect(
                notificationAsApp.status == 400 || notificationAsApp.status == 422,
                "notification payload: \(notificationAsApp.text)")
            let story = try SupportLookup.lookUp(gateway, ["--app-transaction-id", customer])
            #expect(!story.output.contains("930001") && !story.output.contains("930002"), "\(story.output)")
        }

        // MARK: 4. Renewal info

        /// Renewal info without an environment, of Xcode, unsigned (alg none), a transaction in its place,
        /// without an original transaction, in a Production notification while signed for the Sandbox, or in a
        /// notification without a transaction: refused and never recorded.
        @Test func renewalInfoThatIsNotThisSubscriptionsSignedInfoIsNeverRecorded() throws {
            let gateway = try SignedTransactions.gateway()
            defer { gateway.stop() }
            let sub = "Auto-Renewable Subscription"
            let monthly = try SignedTransactions.signed(SampleContent.monthlyId, "940001", type: sub, expiresIn: 20)
            #expect(try Self.post("/v1/verify", [monthly], to: gateway).status == 200)
            var noEnvironment =
                try JSONSerialization.jsonObject(
                    with: Data(base64URL: try Notifications.renewalInfo("940001"))) as? [String: Any] ?? [:]
            noEnvironment["environment"] = nil
            let noOriginal =
                try JSONSerialization.jsonObject(
                    with: Data(base64URL: try Notifications.renewalInfo("940001"))) as? [String: Any] ?? [:]
            let unsignedHeader = SignedVectors.base64URL(Data(#"{"alg":"none","typ":"JWT"}"#.utf8))
            let unsignedPayload = SignedVectors.base64URL(
                try JSONSerialization.data(withJSONObject: noOriginal.merging(["autoRenewStatus": 0]) { $1 }))
            var withoutOriginal = noOriginal
            withoutOriginal["originalTransactionId"] = nil
            let cases: [(String, String, String)] = [
                ("no environment", "Sandbox", try SignedVectors.mint(noEnvironment)),
                ("Xcode", "Sandbox", try Notifications.renewalInfo("940001", environment: "Xcode")),
                ("alg none", "Sandbox", "\(unsignedHeader).\(unsignedPayload)."),
                ("a transaction", "Sandbox", monthly),
                ("no original", "Sandbox", try SignedVectors.mint(withoutOriginal)),
                ("Sandbox renewal in Production notification", "Production", try Notifications.renewalInfo("940001")),
            ]
            for (name, environment, renewal) in cases {
                let before = try Self.rows("subscription_renewals", in: gateway)
                let answer = try Self.send(
                    try Self.notification(
                        "DID_RENEW", transaction: monthly, renewal: renewal, environment: environment),
                    to: gateway)
                #expect(answer.status == 400 || answer.status == 422, "\(name): \(answer.status) \(answer.text)")
                #expect(try Self.rows("subscription_renewals", in: gateway) == before, "\(name) recorded")
            }
            let before = try Self.rows("subscription_renewals", in: gateway)
            let alone = try Self.send(
                try Self.notification(
                    "DID_CHANGE_RENEWAL_STATUS", transaction: nil, renewal: try Notifications.renewalInfo("940001")),
                to: gateway)
            #expect(alone.status == 400 || alone.status == 422, "no transaction: \(alone.status) \(alone.text)")
            #expect(
                try Self.rows("subscription_renewals", in: gateway) == before, "renewal without transaction recorded")
        }
    }
}

extension Data {
    /// The payload (middle part) of a compact JWS, decoded.
    fileprivate init(base64URL jws: String) {
        let part = jws.split(separator: ".", omittingEmptySubsequences: false)[1]
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        self = Data(base64Encoded: text) ?? Data()
    }
}
