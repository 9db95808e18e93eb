import Foundation
import GatewayCore
import GatewayHandlerAPI
import PurchaseLedger
import Testing

@testable import PurchaseVerification

/// `X-StoreGate-Account`: what the app's backend signs, checked in constant time, short-lived, rotatable.
@Suite struct AccountAssertionsTests {
    let assertions = AccountAssertions(
        secret: "current-account-secret", previousSecrets: ["previous-account-secret"], maximumLifetime: 900)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func anAssertionNamesItsAccountUntilItExpires() {
        let assertion = assertions.issue(accountId: "42", lifetime: 300, now: now)
        #expect(assertions.accountId(in: assertion, now: now) == "42")
        #expect(assertions.accountId(in: assertion, now: now.addingTimeInterval(299)) == "42")
        #expect(assertions.accountId(in: assertion, now: now.addingTimeInterval(300)) == nil)
    }

    @Test func oneRunningLongerThanTheMaximumIsNotShortLivedAndRefused() {
        let assertion = assertions.issue(accountId: "42", lifetime: 3_600, now: now)
        #expect(assertions.accountId(in: assertion, now: now) == nil)
        // Nearer its end it is within the maximum, as one made then would be.
        #expect(assertions.accountId(in: assertion, now: now.addingTimeInterval(2_800)) == "42")
    }

    @Test func previousSecretsStillVerifyOthersDoNot() {
        let old = AccountAssertions(secret: "previous-account-secret", maximumLifetime: 900)
        let stranger = AccountAssertions(secret: "stranger-account-secret", maximumLifetime: 900)
        #expect(assertions.accountId(in: old.issue(accountId: "7", lifetime: 60, now: now), now: now) == "7")
        #expect(assertions.accountId(in: stranger.issue(accountId: "7", lifetime: 60, now: now), now: now) == nil)
    }

    @Test func anyChangedByteOrAnUnusableAccountIdIsRefused() {
        let assertion = assertions.issue(accountId: "7D3F2C1A-0000-4000-8000-000000000042", lifetime: 60, now: now)
        for index in assertion.indices where assertion[index] != "." {
            var characters = Array(assertion)
            let position = assertion.distance(from: assertion.startIndex, to: index)
            characters[position] = characters[position] == "A" ? "B" : "A"
            #expect(assertions.accountId(in: String(characters), now: now) == nil)
        }
        for unusable in ["", "has space", "a|b", "a,b", String(repeating: "x", count: 129), "naïve"] {
            #expect(
                assertions.accountId(in: assertions.issue(accountId: unusable, lifetime: 60, now: now), now: now) == nil
            )
        }
    }
}

/// Which source of an account a deployment believes, and which restore policy applies to a purchase.
@Suite struct AccountSettingsTests {
    static let request = GatewayRequest(
        method: .post, path: "/v1/verify", headers: RequestHeaders([("HTTP_X_STOREGATE_ACCOUNT", "not-an-assertion")]),
        webServerAccount: "42")

    @Test func theWebServersAccountCountsOnlyWhenTrusted() throws {
        let signedOnly = AccountSettings(
            trustsWebServer: false, assertions: nil, policy: .keep)
        #expect(try signedOnly.account(of: GatewayRequest(method: .get, path: "/", webServerAccount: "42")) == nil)
        let webServer = AccountSettings(trustsWebServer: true, assertions: nil, policy: .keep)
        #expect(try webServer.account(of: GatewayRequest(method: .get, path: "/", webServerAccount: "42")) == "42")
        // With signed assertions on, a header that is present decides, even beside the web server's account.
        let both = AccountSettings(
            trustsWebServer: true, assertions: AccountAssertions(secret: "s-0123456789abcdef", maximumLifetime: 60),
            policy: .keep)
        #expect(throws: GatewayError.accountAssertionInvalid) { try both.account(of: Self.request) }
    }

    @Test func aProductTypesPolicyWinsThenTheSandboxsThenTheDeployments() {
        let settings = AccountSettings(
            trustsWebServer: true, assertions: nil, policy: .keep, sandboxPolicy: .share,
            kindPolicies: [.autoRenewable: .transfer])
        #expect(settings.policy(environment: "Production", kind: .nonConsumable) == .keep)
        #expect(settings.policy(environment: "Sandbox", kind: .nonConsumable) == .share)
        #expect(settings.policy(environment: "Sandbox", kind: .autoRenewable) == .transfer)
        #expect(settings.policy(environment: "Production", kind: nil) == .keep)
    }
}
