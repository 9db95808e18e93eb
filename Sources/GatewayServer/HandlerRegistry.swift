import GatewayHandlerAPI

/// The handler modules a binary was built with, by their config names. A value, passed to whatever builds the
/// gateway: the `storegate` executable passes the generated list of compiled-in modules.
package struct HandlerRegistry: Sendable {
    private let modules: [String: HandlerModule]
    /// Where each module came from, by name, for modules from outside (storegate-build's words).
    private let origins: [String: String]
    /// What is wrong with the modules themselves (a name two modules claim, a name that is not one): a binary
    /// with such a problem loads no config.
    package let problems: [ConfigProblem]

    /// A registry of `modules`. Each name must be a valid handler name and belong to one module only.
    package init(_ modules: [HandlerModule]) {
        self.init(modules, problems: [])
    }

    /// The registry of the handler modules' main types a build lists (the generated ``compiledIn``); a type that
    /// is not a handler is a problem.
    package init(types: [Any.Type]) {
        let (modules, problems) = Self.modules(ofTypes: types)
        self.init(modules, problems: problems)
    }

    private static func modules(ofTypes types: [Any.Type]) -> ([HandlerModule], [ConfigProblem]) {
        var modules: [HandlerModule] = []
        var problems: [ConfigProblem] = []
        for type in types {
            guard let module = HandlerModule.module(ofType: type) else {
                problems.append(
                    ConfigProblem(
                        keyPath: "handler module \(String(reflecting: type))",
                        message: "is neither a GatewayHandler nor a ContentHandler"))
                continue
            }
            modules.append(module)
        }
        return (modules, problems)
    }

    private init(_ modules: [HandlerModule], problems found: [ConfigProblem], origins: [String: String] = [:]) {
        var byName: [String: HandlerModule] = [:]
        var problems = found
        for module in modules {
            guard HandlerModule.isValidName(module.name) else {
                problems.append(
                    ConfigProblem(
                        keyPath: "handler \"\(module.name)\"",
                        message: "\(module.typeName) has a name that is not lowercase words joined by -"))
                continue
            }
            guard module.needsAreHandedOut else {
                problems.append(
                    ConfigProblem(
                        keyPath: "handler \"\(module.name)\"",
                        message:
                            "\(module.typeName) declares \(module.needs) as its Needs, a type the gateway does not "
                            + "hand out; declare NoNeeds, a capability of GatewayHandlerAPI, or Capabilities of them"))
                continue
            }
            if let taken = byName[module.name] {
                problems.append(
                    ConfigProblem(
                        keyPath: "handler \"\(module.name)\"",
                        message: "both \(taken.typeName) and \(module.typeName) have this name; a name has one module"))
                continue
            }
            byName[module.name] = module
        }
        self.modules = byName
        self.problems = problems
        self.origins = origins.filter { byName[$0.key] != nil }
    }

    /// This registry with `more` modules added.
    package func adding(_ more: [HandlerModule]) -> HandlerRegistry {
        HandlerRegistry(all + more, problems: problems, origins: origins)
    }

    /// This registry with the handler modules whose main types are `types` added (a gateway storegate-build
    /// builds), each from the place `origins` gives for its Swift module (`ReaderHandler`).
    package func adding(types: [Any.Type], origins moduleOrigins: [String: String]) -> HandlerRegistry {
        let (more, found) = Self.modules(ofTypes: types)
        var origins = origins
        for module in more where modules[module.name] == nil && origins[module.name] == nil {
            let swiftModule = String(module.typeName.prefix { $0 != "." })
            origins[module.name] = moduleOrigins[swiftModule] ?? "added"
        }
        // A name two modules claim is a problem whichever came first; the origin kept is the first's.
        return HandlerRegistry(all + more, problems: problems + found, origins: origins)
    }

    /// Where the module registered as `name` came from: "built in", or what storegate-build recorded.
    package func origin(of name: String) -> String { origins[name] ?? "built in" }

    /// The module registered as `name`.
    package func module(named name: String) -> HandlerModule? { modules[name] }

    /// Every registered module, by name.
    package var all: [HandlerModule] { modules.keys.sorted().compactMap { modules[$0] } }

    /// Every registered name, sorted.
    package var names: [String] { modules.keys.sorted() }
}
