import Foundation

/// A handler module as a binary registers it: its name, methods and how a route of it is built. Made only by
/// ``module(_:)``, which mounts a plain handler as itself and a content handler behind verification, and
/// hands each exactly the capabilities its `Needs` declares.
public struct HandlerModule: Sendable, CustomReflectable {
    /// Whether the module answers by itself or delivers content behind verification.
    package enum Kind: String, Sendable {
        case plain
        case content
    }

    /// The config's `handler:` value.
    package let name: String
    package let kind: Kind
    package let methods: [HTTPMethod]
    package let servesSubpaths: Bool
    /// The capabilities the handler declared, by type name, for `storegate version` and reviews.
    package let needs: String
    /// Whether the gateway hands out what the handler declared; a registry refuses a module whose `Needs` is
    /// its own type (its `provided(by:)` would be handed the route's capability source, to keep).
    package let needsAreHandedOut: Bool
    /// The handler's type with its module (`CatalogHandler.CatalogHandler`), to name it in problems.
    package let typeName: String
    private let make: @Sendable (HandlerSetup, CapabilitySource) throws -> any RouteResponder

    /// Nothing: `make` builds a route from any capability source, and a module that kept one (its own `Needs`
    /// is handed the real source) could call it and walk the gateway's content gate (a seventeenth reviewer did).
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    private init(
        name: String, kind: Kind, methods: [HTTPMethod], servesSubpaths: Bool, needs: any HandlerNeeds.Type,
        typeName: String, make: @escaping @Sendable (HandlerSetup, CapabilitySource) throws -> any RouteResponder
    ) {
        self.name = name
        self.kind = kind
        self.methods = methods
        self.servesSubpaths = servesSubpaths
        // A pack prints as `Capabilities<Pack{Catalog, MetricsText}>`; people read it as declared.
        self.needs = "\(needs)".replacingOccurrences(of: "<Pack{", with: "<").replacingOccurrences(of: "}>", with: ">")
        needsAreHandedOut = needs is any HandedOutNeeds.Type
        self.typeName = typeName
        self.make = make
    }

    /// Whether `name` may name a handler: lowercase letters and digits in words joined by `-` (`restore-sync`),
    /// so that its config section and environment variables are its own.
    package static func isValidName(_ name: String) -> Bool {
        let words = name.split(separator: "-", omittingEmptySubsequences: false)
        return !name.isEmpty && name.utf8.count <= 64
            && words.allSatisfy { word in
                !word.isEmpty && word.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
            }
    }

    /// Builds the responder of one mounted route from the load's capabilities.
    package func makeResponder(_ setup: HandlerSetup, capabilities: CapabilitySource) throws -> any RouteResponder {
        try make(setup, capabilities)
    }

    /// The module of `type`, a handler module's main type as the generated registry lists it: a content handler
    /// behind verification, a plain one as itself; nil for a type that is neither. Resolved here, where no handler
    /// module is imported, so no overload of ``module(_:)`` a handler module declares is ever chosen.
    package static func module(ofType type: Any.Type) -> HandlerModule? {
        if let content = type as? any ContentHandler.Type { return module(content) }
        if let plain = type as? any GatewayHandler.Type { return module(plain) }
        return nil
    }

    /// The module of a handler that answers by itself.
    public static func module<Handler: GatewayHandler>(_ handler: Handler.Type) -> HandlerModule {
        HandlerModule(
            name: Handler.name, kind: .plain, methods: Handler.methods, servesSubpaths: Handler.servesSubpaths,
            needs: Handler.Needs.self, typeName: String(reflecting: Handler.self)
        ) { setup, source in
            try Handler(setup, needs: try Handler.Needs.provided(by: source).value)
        }
    }

    /// The module of a content handler: its route answers only behind the load's verification.
    public static func module<Handler: ContentHandler>(_ handler: Handler.Type) -> HandlerModule {
        HandlerModule(
            name: Handler.name, kind: .content, methods: Handler.methods, servesSubpaths: Handler.servesSubpaths,
            needs: Handler.Needs.self, typeName: String(reflecting: Handler.self)
        ) { setup, source in
            let handler = try Handler(setup, needs: try Handler.Needs.provided(by: source).value)
            let gate = try source.provider.contentGate(
                tokensRequiredBy: Handler.needsDownloadTokens ? Handler.name : nil)
            return ContentRoute(handler: handler, gate: gate)
        }
    }
}
