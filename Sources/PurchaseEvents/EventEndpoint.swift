import GatewayCore
import PurchaseLedger

/// One receiver of events (`events.endpoints.<name>`): its URL, the secret its deliveries are signed with, and
/// which events it takes.
package struct EventEndpoint: Sendable {
    /// Its name in the config, the ledger and the metrics.
    package let name: String
    package let url: String
    let signature: EventSignature
    /// The event types it takes; nil for all.
    package let types: [String]?
    /// The environments whose events it takes; nil for all.
    package let environments: [String]?

    /// What the ledger knows of it.
    package var subscription: EventSubscription {
        EventSubscription(endpoint: name, types: types, environments: environments)
    }

    /// The endpoint `section` configures under `name`; nil, with its problems reported, when it is not whole.
    init?(name: String, section: ConfigReader) {
        let example = "https://backend.example.com/storegate/events"
        let text = section.requiredString("url", why: "is required: where this endpoint's events are sent")
        // A wrong URL is reported, and the example given back.
        let url = text.map { _ in section.serviceURL("url", default: example) }
        let secret = section.requiredString(
            "secret",
            why:
                "is required: the key receivers check each event's signature with (or set \(section.environmentVariable(for: "secret") ?? "it"))"
        )
        if let secret, secret.utf8.count < 16 {
            section.report("secret", "must be at least 16 characters (32 random bytes are best)")
        }
        let types = section.value("types") == nil ? nil : section.stringList("types")
        for type in types ?? [] where EventType(rawValue: type) == nil {
            let known = EventType.allCases.map(\.rawValue).joined(separator: ", ")
            section.report("types", "names \"\(type)\", which is no event type; the types are \(known)")
        }
        let environments = section.value("environments") == nil ? nil : section.stringList("environments")
        guard let url, url == text, let secret, secret.utf8.count >= 16,
            (types ?? []).allSatisfy({ EventType(rawValue: $0) != nil })
        else { return nil }
        self.name = name
        self.url = url
        signature = EventSignature(secret: secret)
        self.types = types
        self.environments = environments
    }
}
