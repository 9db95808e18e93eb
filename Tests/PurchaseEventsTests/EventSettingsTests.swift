import ConfigYAML
import Crypto
import Foundation
import GatewayCore
import PurchaseLedger
import Testing

@testable import PurchaseEvents

/// The `events` section as an operator writes it, the body a receiver gets, and the signature it checks.
@Suite struct EventSettingsTests {
    private func settings(_ yaml: String, environment: [String: String] = [:]) throws -> (
        EventSettings, [String]
    ) {
        let config = try ConfigReader(
            yaml: yaml, source: "test.yaml", baseDirectory: "/etc/storegate", environment: environment)
        let settings = EventSettings(section: config.scoped("events"))
        return (settings, config.problems.map(\.description))
    }

    @Test func endpointsAreNamedWithTheirChoicesAndTheSecretMayComeFromTheEnvironment() throws {
        let (settings, problems) = try settings(
            """
            events:
              retry_for_s: 172800
              endpoints:
                backend:
                  url: https://backend.example.com/hooks/storegate
                  types: [purchase.recorded, purchase.revoked]
                  environments: [Production]
                local:
                  url: http://127.0.0.1:9000/events
                  secret: a-secret-of-sixteen-or-more
            """, environment: ["STOREGATE_EVENTS_ENDPOINTS_BACKEND_SECRET": "another-long-enough-secret"])
        #expect(problems.isEmpty)
        #expect(settings.endpoints.map(\.name) == ["backend", "local"])
        #expect(
            settings.endpoints.map(\.subscription) == [
                EventSubscription(
                    endpoint: "backend", types: ["purchase.recorded", "purchase.revoked"], environments: ["Production"]),
                EventSubscription(endpoint: "local", types: nil, environments: nil),
            ])
        #expect(settings.retryWindow == 172_800)
        #expect(settings.pause(after: 1, retryAfter: nil) == 10)
        #expect(settings.pause(after: 3, retryAfter: nil) == 40)
        #expect(settings.pause(after: 30, retryAfter: nil) == 3_600)
        #expect(settings.pause(after: 1, retryAfter: 120) == 120)
    }

    @Test func anEndpointMayBeNamedByTheEnvironmentAlone() throws {
        let (settings, problems) = try settings(
            "events:\n  retry_for_s: 3600\n",
            environment: [
                "STOREGATE_EVENTS_ENDPOINTS_CRM_URL": "https://crm.example.com/events",
                "STOREGATE_EVENTS_ENDPOINTS_CRM_SECRET": "a-secret-of-sixteen-or-more",
            ])
        #expect(problems.isEmpty)
        #expect(settings.endpoints.map(\.name) == ["crm"])
        #expect(settings.endpoints.first?.url == "https://crm.example.com/events")
    }

    @Test func anEndpointThatCannotBeUsedIsRefusedInWords() throws {
        let (settings, problems) = try settings(
            """
            events:
              endpoints:
                clear:
                  url: http://backend.example.com/events
                  secret: a-secret-of-sixteen-or-more
                short:
                  url: https://backend.example.com/events
                  secret: short
                typo:
                  url: https://backend.example.com/events
                  secret: a-secret-of-sixteen-or-more
                  types: [purchase.refunded]
                Bad-Name:
                  url: https://backend.example.com/events
            """)
        #expect(settings.endpoints.isEmpty)
        #expect(problems.contains { $0.contains("events.endpoints.clear.url") && $0.contains("must use https") })
        #expect(problems.contains { $0.contains("events.endpoints.short.secret") && $0.contains("at least 16") })
        #expect(problems.contains { $0.contains("events.endpoints.typo.types") && $0.contains("purchase.refunded") })
        #expect(problems.contains { $0.contains("events.endpoints.Bad-Name") && $0.contains("is not a name") })
        #expect(
            problems.contains {
                $0.contains("events.endpoints.typo.types") && $0.contains("purchase.revoked")
            }, "the known types are listed")
    }

    @Test func theBodyCarriesEveryFieldAndTheTypesFacts() throws {
        let event = LedgerEvent(
            sequence: 7, id: "evt_0123456789abcdef0123456789abcdef", type: "content.delivered",
            at: Date(timeIntervalSince1970: 1_764_385_865.123), environment: "Production",
            originalTransactionId: "google-play:com.example.reader:GPA.1", productId: "com.example.issue1",
            accountId: nil, facts: #"{"content_sha256" : "ab", "request_id" : "r-1", "quantity": 2, "gone": null}"#)
        let body = String(decoding: EventPayload(event).body, as: UTF8.self)
        #expect(
            body == """
                {"account_id":null,"at":"2025-11-29T03:11:05.123Z","data":{"content_sha256":"ab","gone":null,\
                "quantity":2,"request_id":"r-1"},"environment":"Production","id":"evt_0123456789abcdef0123456789abcdef",\
                "original_transaction_id":"google-play:com.example.reader:GPA.1","product_id":"com.example.issue1",\
                "store":"google-play","type":"content.delivered"}
                """)
    }

    @Test func theSignatureIsAnHMACOfTheTimestampAndTheBody() throws {
        let body = Array(#"{"id":"evt_1"}"#.utf8)
        let value = EventSignature(secret: "a-secret-of-sixteen-or-more").value(
            for: body, at: Date(timeIntervalSince1970: 1_764_385_865.9))
        // Computed apart, as a receiver does.
        let expected = HMAC<SHA256>.authenticationCode(
            for: Array("1764385865.".utf8) + body, using: SymmetricKey(data: Array("a-secret-of-sixteen-or-more".utf8)))
        #expect(value == "t=1764385865,v1=" + expected.map { String(format: "%02x", $0) }.joined())
        #expect(String(describing: EventSignature(secret: "a-secret-of-sixteen-or-more")).contains("sixteen") == false)
    }
}
