import Crypto
import Foundation
import Testing

extension EndToEnd {
    /// Signed subscription offers for an asserted app account (`GET /v1/offers/{product}`), decided from the ledger
    /// and signed with the in-app purchase key: checked here with the key's public half, claims exact.
    @Suite struct Offers {
        /// A gateway signing offers with `key`; the tests' purchases are Sandbox ones, which count with
        /// `environment: Sandbox`.
        static func gateway(key: P256.Signing.PrivateKey, environment: String = "Sandbox") throws -> VerifyDeployment {
            try VerifyDeployment(
                apple: VerifyDeployment.trustingTestChain, delivery: "stream", serverAPIKey: key,
                extra: """
                    accounts:
                      asserted_by: [signed]
                      secret: \(Accounts.secret)
                      restore_policy: keep
                    offers:
                      environment: \(environment)
                      promotional:
                        - { id: winback50, product: \(SampleContent.monthlyId), for: lapsed }
                        - { id: loyal10, product: \(SampleContent.monthlyId), for: subscribed }
                        - { id: welcome, product: \(SampleContent.monthlyId), for: never-subscribed }

                    """,
                moreRoutes: [("/v1/offers", "offers")])
        }

        /// A compact JWS's header and claims, once its ES256 signature checks out under `key`.
        static func verified(_ jws: String, key: P256.Signing.PublicKey) throws -> (
            header: [String: Any], claims: [String: Any]
        ) {
            let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            try #require(parts.count == 3)
            func bytes(_ text: String) throws -> Data {
                var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
                base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
                return try #require(Data(base64Encoded: base64))
            }
            let signature = try P256.Signing.ECDSASignature(rawRepresentation: try bytes(parts[2]))
            #expect(key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)), "bad signature")
            let header = try #require(try JSONSerialization.jsonObject(with: try bytes(parts[0])) as? [String: Any])
            let claims = try #require(try JSONSerialization.jsonObject(with: try bytes(parts[1])) as? [String: Any])
            return (header, claims)
        }

        /// Checks the claims every offer signature carries and returns the rest.
        static func offerClaims(_ jws: String, key: P256.Signing.PublicKey, audience: String) throws -> [String: Any] {
            let (header, claims) = try verified(jws, key: key)
            #expect(header as NSDictionary == ["alg": "ES256", "kid": AppStoreStandIn.apiKeyId, "typ": "JWT"])
            #expect(claims["iss"] as? String == AppStoreStandIn.apiIssuer)
            #expect(claims["bid"] as? String == SampleContent.bundleId)
            #expect(claims["aud"] as? String == audience)
            let issued = try #require(claims["iat"] as? Int)
            #expect(abs(Double(issued) - Date().timeIntervalSince1970) < 60)
            let nonce = try #require(claims["nonce"] as? String)
            #expect(UUID(uuidString: nonce) != nil && nonce == nonce.lowercased())
            return claims.filter { !["iss", "bid", "aud", "iat", "nonce"].contains($0.key) }
        }

        static func offers(_ account: String?, _ product: String, in gateway: VerifyDeployment) throws
            -> HTTPResponse
        {
            try gateway.deployment.request(
                "/v1/offers/\(product)", headers: account.map { [Accounts.asserting($0)] } ?? [])
        }

        @Test func eachAccountGetsTheOffersItsSubscriptionsAllowSignedWithTheKey() throws {
            let key = P256.Signing.PrivateKey()
            let gateway = try Self.gateway(key: key)
            defer { gateway.stop() }
            let (newcomer, subscriber, lapsed) = ("reader-new", "reader-on", "reader-gone")
            let issue = try SignedTransactions.signed(SampleContent.issueId, "790001")
            let active = try SignedTransactions.signed(
                SampleContent.monthlyId, "790002", type: "Auto-Renewable Subscription", expiresIn: 20)
            let expired = try SignedTransactions.signed(
                SampleContent.monthlyId, "790003", type: "Auto-Renewable Subscription", expiresIn: -3)
            for (account, purchase) in [(newcomer, issue), (subscriber, active), (lapsed, expired)] {
                #expect(try Accounts.post("verify", [purchase], as: account, to: gateway).status == 200)
            }

            // Never subscribed: the offer for newcomers; the introductory offer is left to Apple's own rule (per
            // Apple Account), unsigned, as an allowance would let one Apple Account take it again elsewhere.
            let first = try Self.offers(newcomer, SampleContent.monthlyId, in: gateway)
            #expect(first.status == 200, "\(first.text)")
            #expect(first.header("Cache-Control") == "no-store")
            #expect(first.json["account_id"] as? String == newcomer)
            let introductory = try #require(first.json["introductory_offer"] as? [String: Any])
            #expect(introductory["eligible"] as? Bool == true)
            #expect(introductory["signature"] is NSNull)
            #expect(Self.offerIds(first) == ["welcome"])

            // Subscribed now: the introductory offer refused, signed, claims exact; the loyalty offer.
            let second = try Self.offers(subscriber, SampleContent.monthlyId, in: gateway)
            let notEligible = try #require(second.json["introductory_offer"] as? [String: Any])
            #expect(notEligible["eligible"] as? Bool == false)
            let refusal = try Self.offerClaims(
                try #require(notEligible["signature"] as? String), key: key.publicKey,
                audience: "introductory-offer-eligibility")
            #expect(
                refusal as NSDictionary
                    == [
                        "productId": SampleContent.monthlyId, "allowIntroductoryOffer": false,
                        "transactionId": "790002",
                    ])
            #expect(Self.offerIds(second) == ["loyal10"])

            // Lapsed: the win-back offer, its claims exact.
            let third = try Self.offers(lapsed, SampleContent.monthlyId, in: gateway)
            #expect(Self.offerIds(third) == ["winback50"])
            let winback = try #require((third.json["promotional_offers"] as? [[String: Any]])?.first)
            let claims = try Self.offerClaims(
                try #require(winback["signature"] as? String), key: key.publicKey, audience: "promotional-offer")
            #expect(
                claims as NSDictionary
                    == [
                        "productId": SampleContent.monthlyId, "offerIdentifier": "winback50", "transactionId": "790003",
                    ])
            // Every signature is fresh: StoreKit refuses a nonce it has seen.
            let again = try Self.offers(lapsed, SampleContent.monthlyId, in: gateway)
            #expect(
                (again.json["promotional_offers"] as? [[String: Any]])?.first?["signature"] as? String
                    != winback["signature"] as? String)
        }

        /// The introductory offer is one per subscription group (the catalog's `group`): a subscriber of one
        /// product of the group is not eligible for another's, and is for a product of another group.
        @Test func theIntroductoryOfferIsDecidedPerSubscriptionGroup() throws {
            let gateway = try Self.gateway(key: P256.Signing.PrivateKey())
            defer { gateway.stop() }
            let catalog =
                SampleContent.catalog.replacingOccurrences(
                    of: "description: Every issue", with: "description: Every issue\n    group: premium")
                    + """

                      - { id: com.example.yearly, type: auto-renewable, title: Yearly, group: premium }
                      - { id: com.example.weekly, type: auto-renewable, title: Weekly }

                    """
            try catalog.write(
                to: gateway.deployment.folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
            gateway.deployment.gateway.signal(SIGHUP)
            #expect(ManagedProcess.poll(for: .seconds(10)) { gateway.deployment.gateway.log.contains("reloaded") })
            let monthly = try SignedTransactions.signed(
                SampleContent.monthlyId, "791001", type: "Auto-Renewable Subscription", expiresIn: 20)
            #expect(try Accounts.post("verify", [monthly], as: "reader", to: gateway).status == 200)
            let eligible = { (product: String) throws -> Bool? in
                let answer = try Self.offers("reader", product, in: gateway)
                #expect(answer.status == 200, "\(answer.text)")
                return (answer.json["introductory_offer"] as? [String: Any])?["eligible"] as? Bool
            }
            #expect(try eligible("com.example.yearly") == false)
            #expect(try eligible("com.example.weekly") == true)
        }

        /// From a reviewer: a subscription whose renewal Apple is still collecting (billing retry, grace period) is not
        /// lapsed; one refunded at once never ran, so it is not lapsed either; Sandbox purchases do not count for
        /// Production offers.
        @Test func onlyARealLapseIsLapsed() throws {
            let gateway = try Self.gateway(key: P256.Signing.PrivateKey())
            defer { gateway.stop() }
            let retrying = try SignedTransactions.signed(
                SampleContent.monthlyId, "792001", type: "Auto-Renewable Subscription", expiresIn: -1)
            #expect(try Accounts.post("verify", [retrying], as: "retrying", to: gateway).status == 200)
            #expect(Self.offerIds(try Self.offers("retrying", SampleContent.monthlyId, in: gateway)) == ["winback50"])
            let collecting = try Notifications.renewalInfo(
                "792001",
                more: [
                    "isInBillingRetryPeriod": true,
                    "gracePeriodExpiresDate": Date().addingTimeInterval(86_400).timeIntervalSince1970 * 1000,
                ])
            #expect(
                try Notifications.post("DID_FAIL_TO_RENEW", transaction: retrying, renewal: collecting, to: gateway)
                    .status == 200)
            #expect(Self.offerIds(try Self.offers("retrying", SampleContent.monthlyId, in: gateway)) == ["loyal10"])

            let refunded = try SignedTransactions.signed(
                SampleContent.monthlyId, "792002", type: "Auto-Renewable Subscription", expiresIn: 20, revoked: true)
            #expect(try Accounts.post("verify", [refunded], as: "refunded", to: gateway).status == 200)
            let afterRefund = try Self.offers("refunded", SampleContent.monthlyId, in: gateway)
            #expect(Self.offerIds(afterRefund) == [])
            #expect((afterRefund.json["introductory_offer"] as? [String: Any])?["eligible"] as? Bool == false)

            let production = try Self.gateway(key: P256.Signing.PrivateKey(), environment: "Production")
            defer { production.stop() }
            let sandbox = try SignedTransactions.signed(
                SampleContent.monthlyId, "792003", type: "Auto-Renewable Subscription", expiresIn: -1)
            #expect(try Accounts.post("verify", [sandbox], as: "tester", to: production).status == 200)
            let tester = try Self.offers("tester", SampleContent.monthlyId, in: production)
            #expect(Self.offerIds(tester) == ["welcome"], "a sandbox lapse is no Production lapse")
        }

        @Test func offersNeedAnAccountAndASubscriptionOfTheCatalog() throws {
            let gateway = try Self.gateway(key: P256.Signing.PrivateKey())
            defer { gateway.stop() }
            #expect(try Self.offers(nil, SampleContent.monthlyId, in: gateway).errorCode == "account_required")
            let forged = try gateway.deployment.request(
                "/v1/offers/\(SampleContent.monthlyId)",
                headers: [Accounts.asserting("mallory", secret: "not-the-secret-0123456789")])
            #expect(forged.errorCode == "account_assertion_invalid", "\(forged.text)")
            #expect(try Self.offers("reader", SampleContent.issueId, in: gateway).errorCode == "unknown_product")
            #expect(try Self.offers("reader", "com.example.nothing", in: gateway).errorCode == "unknown_product")
            #expect(try Self.offers("reader", "../etc", in: gateway).status == 404)
        }

        static func offerIds(_ answer: HTTPResponse) -> [String] {
            (answer.json["promotional_offers"] as? [[String: Any]])?.compactMap { $0["offer_id"] as? String } ?? []
        }
    }
}
