import AppStoreSim
import ConfigYAML
import Foundation
import GatewayCore
import GoogleTestSupport
import Testing

@testable import GooglePlayAPI

/// The `google` section's connection keys: problems name the key, never show the key's text.
@Suite struct GoogleAPISettingsTests {
    static func read(_ yaml: String, environment: [String: String] = [:]) throws -> (GoogleAPISettings?, [String]) {
        let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: environment)
        let settings = GoogleAPISettings(reader.scoped("google"))
        return (settings, reader.problems.map(\.description))
    }

    @Test func googlesAddressesAreTheDefaults() throws {
        let account = try GoogleTestAccount()
        let (settings, problems) = try Self.read(
            "google:\n  package_names: [com.example]\n",
            environment: ["STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY": try account.json()])
        #expect(problems.isEmpty)
        #expect(settings?.apiURL == "https://androidpublisher.googleapis.com")
        #expect(settings?.tokenURL == "https://oauth2.googleapis.com/token")
        #expect(settings?.callsPerMinute == 2_500)
        #expect(settings?.account.clientEmail == GoogleTestAccount.email)
    }

    @Test func aMissingKeySaysWhereToPutIt() throws {
        let (settings, problems) = try Self.read("google:\n  package_names: [com.example]\n")
        #expect(settings == nil)
        #expect(problems.count == 1)
        #expect(problems[0].contains("google.service_account_key_file"))
        #expect(problems[0].contains("STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY"))
        let (_, missing) = try Self.read("google:\n  service_account_key_file: /nonexistent/key.json\n")
        #expect(missing.first?.contains("no such file") == true)
    }

    @Test func aBrokenKeyIsNamedByItsPathAndNeverShown() throws {
        let account = try GoogleTestAccount()
        let text = try account.json().replacingOccurrences(of: "service_account", with: "authorized_user")
        let (settings, problems) = try Self.read(
            "google:\n  package_names: [com.example]\n", environment: ["STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY": text])
        #expect(settings == nil)
        #expect(problems.count == 1)
        #expect(problems[0].contains("google.service_account_key"))
        #expect(!problems[0].contains("PRIVATE KEY"))
        #expect(!problems[0].contains(GoogleTestAccount.keyId))
    }

    @Test func plainHTTPIsRefusedExceptToLoopback() throws {
        let account = try GoogleTestAccount()
        let (_, problems) = try Self.read(
            "google:\n  api_url: http://androidpublisher.example.com\n  token_url: http://127.0.0.1:9/token\n",
            environment: ["STOREGATE_GOOGLE_SERVICE_ACCOUNT_KEY": try account.json()])
        #expect(problems.count == 1)
        #expect(problems[0].contains("google.api_url"))
        #expect(problems[0].contains("https"))
    }
}

/// The quickstart's fixtures for Google's stand-in read as the stand-in reads them.
@Suite struct QuickstartGoogleFixtures {
    @Test func theQuickstartsGooglePurchasesLoad() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("deploy/appstore-sim/receipts.yaml")
        let fixtures = try SimFixtures.load(path: file.path)
        #expect(
            fixtures.googlePurchases.map(\.token) == [
                "demo-android-buyer", "demo-android-subscriber", "demo-android-pending", "demo-android-tester",
            ])
        #expect(fixtures.googlePurchases.allSatisfy { $0.packageName == "com.example.magazine.android" })
        #expect(fixtures.googlePurchases[1].subscription)
    }
}
