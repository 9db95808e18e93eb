import Foundation

/// The generator's command line: where to write, which module is the handler API, the modules of the
/// package, and each handler module with its dependencies on the package's modules, its source files, and what
/// it reaches through packages from outside (macros, binaries, their source files).
struct Invocation {
    struct Handler {
        let name: String
        var dependencies: [String] = []
        var sources: [String] = []
        /// The macro modules among everything it depends on, directly or not.
        var macros: [String] = []
        /// The binary targets among everything it depends on, directly or not.
        var binaries: [String] = []
        /// The source and header files of the other modules it depends on, directly or not, outside this package.
        var outsideSources: [String] = []
        /// The package names (`-package-name`) of the packages from outside it reaches.
        var outsidePackageNames: [String] = []
        /// The names of the modules from outside it reaches, and its own.
        var outsideModules: [String] = []
        /// The targets it reaches, or is, that are not Swift and not of the gateway's own packages, each with its
        /// package's identity.
        var nativeTargets: [(module: String, package: String)] = []
        /// The manifests of the packages it reaches, and its own, that are not the gateway's.
        var foreignManifests: [String] = []
    }

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    var output: String?
    /// Which registry to write: the compiled-in modules of this package, or the modules from outside that a
    /// package of storegate-build's adds.
    var registry = RegistrySource.Kind.compiledIn
    var api = ""
    /// This package's own package name (`-package-name`): a package from outside with the same one is compiled as a
    /// member of this package.
    var packageName = ""
    var packageModules: Set<String> = []
    var handlers: [Handler] = []
    /// The build's scratch folder, whose module folders every compile of the build searches first, and the
    /// modules the build's packages define.
    var buildFolder: String?
    var graphModules: Set<String> = []
    /// The Swift sources of the gateway's packages (this one, and every package its own modules build with),
    /// whose `canImport` tests name modules no module of the build may be named like.
    var gatewaySources: [String] = []
    /// The packages the gateway's own modules build with: this package's identity, where those from a repository
    /// come from, which depends on which, and each one's manifests.
    var gatewayRoot = ""
    var gatewayRepositories: [RepositoryOrigins.Origin] = []
    /// The gateway packages this build takes from a package registry: identity, and the registry's identity and
    /// version of the copy.
    var gatewayRegistryCopies: [String: String] = [:]
    var gatewayDependencies: [(parent: String, child: String)] = []
    var gatewayManifests: [String: [String]] = [:]

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        func value(of option: String) throws -> String {
            guard let value = rest.popFirst() else { throw Problem(description: "\(option) needs a value") }
            return value
        }
        func list(_ text: String) -> [String] { text.split(separator: ",").map(String.init) }
        while let option = rest.popFirst() {
            switch option {
            case "--output": output = try value(of: option)
            case "--api": api = try value(of: option)
            case "--registry":
                let text = try value(of: option)
                guard let kind = RegistrySource.Kind(rawValue: text) else {
                    throw Problem(description: "--registry is compiled-in or added, not \(text)")
                }
                registry = kind
            case "--package-name": packageName = try value(of: option)
            case "--build-folder": buildFolder = try value(of: option)
            case "--graph-modules": graphModules = Set(list(try value(of: option)))
            case "--gateway-sources":
                // A file that lists them, each ended by a NUL, as --outside-sources.
                let text = try value(of: option)
                guard let listed = try? String(contentsOfFile: text, encoding: .utf8) else {
                    throw Problem(description: "cannot read the list of the gateway's sources \(text)")
                }
                gatewaySources = listed.split(separator: "\0").map(String.init)
            case "--gateway-root": gatewayRoot = try value(of: option)
            case "--gateway-dependency":
                gatewayDependencies.append((try value(of: option), try value(of: option)))
            case "--gateway-manifest":
                gatewayManifests[try value(of: option), default: []].append(try value(of: option))
            case "--gateway-repository":
                gatewayRepositories.append(
                    RepositoryOrigins.Origin(
                        identity: try value(of: option), location: try value(of: option),
                        version: try value(of: option),
                        revision: try value(of: option)))
            case "--gateway-registry":
                let identity = try value(of: option)
                gatewayRegistryCopies[identity] = "\(try value(of: option)) \(try value(of: option))"
            case "--package-modules": packageModules = Set(list(try value(of: option)))
            case "--handler": handlers.append(Handler(name: try value(of: option)))
            case "--source":
                // One path per argument: a file's name may hold any character but NUL (a comma, a line end).
                guard !handlers.isEmpty else { throw Problem(description: "\(option) comes after a --handler") }
                handlers[handlers.count - 1].sources.append(try value(of: option))
            case "--foreign-manifest":
                guard !handlers.isEmpty else { throw Problem(description: "\(option) comes after a --handler") }
                handlers[handlers.count - 1].foreignManifests.append(try value(of: option))
            case "--native-target":
                guard !handlers.isEmpty else { throw Problem(description: "\(option) comes after a --handler") }
                handlers[handlers.count - 1].nativeTargets.append((try value(of: option), try value(of: option)))
            case "--depends", "--macros", "--binaries", "--outside-sources", "--outside-package-names",
                "--outside-modules":
                guard !handlers.isEmpty else { throw Problem(description: "\(option) comes after a --handler") }
                let text = try value(of: option)
                let values = list(text)
                switch option {
                case "--depends": handlers[handlers.count - 1].dependencies = values
                case "--macros": handlers[handlers.count - 1].macros = values
                case "--binaries": handlers[handlers.count - 1].binaries = values
                case "--outside-package-names": handlers[handlers.count - 1].outsidePackageNames = values
                case "--outside-modules": handlers[handlers.count - 1].outsideModules = values
                default:
                    // A file that lists them, each ended by a NUL (the one character no path holds).
                    guard let listed = try? String(contentsOfFile: text, encoding: .utf8) else {
                        throw Problem(description: "cannot read the list of outside sources \(text)")
                    }
                    handlers[handlers.count - 1].outsideSources = listed.split(separator: "\0").map(String.init)
                }
            default: throw Problem(description: "unknown option \(option)")
            }
        }
        guard !api.isEmpty else { throw Problem(description: "--api is required") }
    }
}
