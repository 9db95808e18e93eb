import Foundation
import PackagePlugin

/// Generates the registry of handler modules for the target it is applied to, after checking each module.
///
/// In this package (applied to StoreGateApp), every module under `Plugins/` that the target depends on is a
/// handler module whose main type carries the module's name: `HandlerRegistry.compiledIn`. In a package of
/// storegate-build's (applied to its executable), every library product the target depends on that is not this
/// package's is a handler module from outside, its module named like the product: `AddedHandlers.types`.
///
/// Before that, the generator refuses a handler module that depends on, or imports, a module of this package
/// other than the handler API (directly or through any package it reaches), that can use macros or binary
/// targets, that is or reaches code other than Swift outside the packages the gateway builds with, or whose
/// outside dependencies (every package it reaches, all the way down) reach into this package's modules (a build
/// error naming both). Adding a handler is a folder, its name in Package.swift, and a
/// route in the config; or a package of its own, built in by storegate-build.
@main
struct HandlerRegistryPlugin: BuildToolPlugin {
    /// The one module of this package a handler module may build against.
    static let api = "GatewayHandlerAPI"

    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        // This package is the one that holds the handler API: the package the plugin is applied in, or (in a
        // package of storegate-build's) one of its dependencies.
        guard
            let storegate = ([context.package] + context.package.dependencies.map(\.package)).first(where: {
                $0.targets.contains { $0.name == Self.api }
            })
        else { throw Problem(description: "no package among \(context.package.id)'s holds \(Self.api)") }
        let builtIn = storegate.id == context.package.id
        let ownTargets = Set(storegate.targets.map(\.id))
        let handlers =
            try builtIn
            ? Self.pluginFolderModules(of: target, in: storegate) : Self.addedModules(of: target, excluding: ownTargets)
        let packageModules = storegate.targets.map(\.name)
        var arguments = [
            "--api", Self.api, "--package-modules", packageModules.joined(separator: ","),
            "--package-name", Self.packageName(of: storegate.id), "--registry", builtIn ? "compiled-in" : "added",
        ]
        if let scratch = Self.scratchFolder(of: context.pluginWorkDirectoryURL) {
            // With every module this build's packages define: one in the build folder that none defines is stale.
            arguments += [
                "--build-folder", scratch.path, "--graph-modules",
                Self.moduleNames(of: context.package).sorted().joined(separator: ","),
            ]
        }
        var inputs: [URL] = []
        let owners = Self.packageFolders(of: context.package.dependencies.map(\.package))
        let ownerIds = Self.packageIds(of: context.package.dependencies.map(\.package))
        let gatewayPackages = Self.gatewayPackages(
            of: storegate, handlers: Set(handlers.map(\.id)), ownerIds: ownerIds, in: context.package)
        let packageFolder = Dictionary(
            Self.packages(from: context.package.dependencies.map(\.package)).map { ($0.id, $0.directoryURL) },
            uniquingKeysWith: { first, _ in first })
        try Self.refuseLocalCopies(gatewayPackages)
        // Where each comes from, which of them (or this package) depends on it, and their manifests: the check
        // follows the locations named from this package's manifest down.
        arguments += ["--gateway-root", storegate.id]
        for (identity, package) in gatewayPackages.sorted(by: { $0.key < $1.key }) {
            switch package.origin {
            case .repository(let url, let version, let revision):
                arguments += ["--gateway-repository", identity, url, version, revision]
            case .registry(let registryIdentity, let version):
                arguments += ["--gateway-registry", identity, registryIdentity, version]
            default: continue
            }
        }
        for parent in [storegate] + gatewayPackages.values.sorted(by: { $0.id < $1.id }) {
            for child in parent.dependencies.map(\.package) where gatewayPackages[child.id] != nil {
                arguments += ["--gateway-dependency", parent.id, child.id]
            }
            for manifest in Self.manifests(in: parent.directoryURL) {
                arguments += ["--gateway-manifest", parent.id, manifest.path]
                inputs.append(manifest)
            }
        }
        // Their sources, whose `canImport` tests name modules no module of a handler may be named like.
        let gatewaySources = ([storegate] + gatewayPackages.values).flatMap { package in
            package.targets.compactMap { $0 as? any SourceModuleTarget }.flatMap {
                $0.sourceFiles(withSuffix: "swift").map(\.url.path)
            }
        }
        let gatewayList = context.pluginWorkDirectoryURL.appending(path: "gateway-sources")
        try gatewaySources.sorted().map { $0 + "\0" }.joined().write(
            to: gatewayList, atomically: true, encoding: .utf8)
        arguments += ["--gateway-sources", gatewayList.path]
        inputs.append(gatewayList)
        for handler in handlers.sorted(by: { $0.moduleName < $1.moduleName }) {
            let reached = Reached(from: handler.dependencies, stoppingAt: ownTargets, api: Self.api)
            // Its own dependencies on modules of this package, and those its dependencies reach (a package from
            // outside may depend on this one for the handler API, and on nothing else of it).
            let dependencies = Set(
                handler.dependencies.compactMap { dependency -> String? in
                    if case .target(let target) = dependency { target.name } else { nil }
                } + reached.packageModules
            ).sorted()
            let sources = handler.sourceFiles(withSuffix: "swift").map(\.url)
            // Every file of the packages the reached modules belong to, and of a module from outside's own (a C
            // target's public headers, a file it includes, the manifest: one that applies a build plugin is refused,
            // as what the plugin writes is in no file), and every file SwiftPM compiles for them, wherever it lies
            // (a folder the walk leaves out as a package of its own, a link).
            let folders = Set((reached.targetIds + [handler.id]).compactMap { owners[$0] })
            let outside = Set(
                folders.flatMap(Self.files(in:)) + reached.sourceFiles.map(\.standardizedFileURL)
            ).subtracting(sources.map(\.standardizedFileURL)).sorted { $0.path < $1.path }
            // Thousands of paths (a package with C sources) would pass the limit of one argument: a file lists them.
            let outsideList = context.pluginWorkDirectoryURL.appending(path: "\(handler.moduleName).outside-sources")
            try outside.map { $0.path + "\0" }.joined().write(to: outsideList, atomically: true, encoding: .utf8)
            inputs += sources + outside + [outsideList]
            arguments += [
                "--handler", handler.moduleName, "--depends", dependencies.joined(separator: ","),
            ]
            arguments += sources.flatMap { ["--source", $0.path] }
            // C, C++, Objective-C, assembly and a system library's headers come from the gateway's own packages
            // only (their origins checked): a C definition of a function of a shared library the gateway links
            // takes its place for the whole binary, however the preprocessor spells its name (a thirty-fourth
            // reviewer's libfcgi `FCGX_PutStr` read every answer, and turned a 401 into an X-Accel-Redirect).
            let own = handler is SwiftSourceModuleTarget ? [] : [(name: handler.name, id: handler.id)]
            for native in own + reached.nativeTargets where gatewayPackages[ownerIds[native.id] ?? ""] == nil {
                arguments += ["--native-target", native.name, ownerIds[native.id] ?? storegate.id]
            }
            // Nor C settings in their manifests: a Swift target given a header search path compiles the headers of
            // the module maps there into its own object (a thirty-fifth reviewer's defined libfcgi's functions so).
            let foreign = Set((reached.targetIds + [handler.id]).compactMap { ownerIds[$0] })
                .subtracting(gatewayPackages.keys)
            for identity in foreign.sorted() {
                guard let folder = packageFolder[identity] else { continue }
                arguments += Self.manifests(in: folder).flatMap { ["--foreign-manifest", $0.path] }
            }
            arguments += [
                "--macros", reached.macros.sorted().joined(separator: ","),
                "--binaries", reached.binaries.sorted().joined(separator: ","),
                "--outside-sources", outsideList.path,
                "--outside-modules", (reached.targetNames + [handler.name]).sorted().joined(separator: ","),
                "--outside-package-names",
                Set((reached.targetIds + [handler.id]).compactMap { ownerIds[$0] }).map(Self.packageName(of:)).sorted()
                    .joined(separator: ","),
            ]
        }
        let output = context.pluginWorkDirectoryURL
        let prefix = builtIn ? "CompiledIn" : "Added"
        let files = ["\(prefix)Handlers.swift"] + handlers.map { "\(prefix)+\($0.moduleName).swift" }
        return [
            .buildCommand(
                displayName:
                    "Checking handler modules and generating the registry of \(builtIn ? "compiled-in" : "added") handlers",
                executable: try context.tool(named: "HandlerRegistryGenerator").url,
                arguments: ["--output", output.path] + arguments,
                inputFiles: inputs,
                outputFiles: files.map { output.appending(path: $0) }
            )
        ]
    }

    /// The packages the gateway's own modules (all but the handler modules) build with, all the way down, by
    /// identity.
    static func gatewayPackages(
        of storegate: Package, handlers: Set<String>, ownerIds: [String: String], in root: Package
    ) -> [String: Package] {
        // Not its tests': nothing of theirs is linked into the gateway.
        let own = storegate.targets.filter {
            !handlers.contains($0.id) && ($0 as? any SourceModuleTarget)?.kind != .test
        }
        let reached = Reached(from: own.flatMap(\.dependencies), stoppingAt: Set(storegate.targets.map(\.id)), api: api)
        let identities = Set(reached.targetIds.compactMap { ownerIds[$0] })
        return Dictionary(
            uniqueKeysWithValues: packages(from: [root]).filter { identities.contains($0.id) }.map { ($0.id, $0) })
    }

    /// `roots` and every package they depend on, all the way down, each once.
    static func packages(from roots: [Package]) -> [Package] {
        var found: [Package] = []
        var seen: Set<String> = []
        var pending = roots
        while let package = pending.popLast() {
            guard seen.insert(package.id).inserted else { continue }
            found.append(package)
            pending += package.dependencies.map(\.package)
        }
        return found
    }

    /// Refuses a graph that takes, from a folder, a package the gateway's own modules build with: SwiftPM builds
    /// one package per identity for the whole graph, so that copy would be built into the gateway in place of the
    /// one they resolve (a twenty-ninth reviewer's copy of swift-nio-ssl journaled every byte AsyncHTTPClient sent
    /// Apple, the shared secret and the Server API's tokens among them). Whether a handler module reaches the copy
    /// does not matter: a thirtieth's came in through a product of the handler's package that the handler never
    /// used.
    static func refuseLocalCopies(_ gatewayPackages: [String: Package]) throws {
        for (identity, package) in gatewayPackages.sorted(by: { $0.key < $1.key }) {
            guard case .local(let path) = package.origin else { continue }
            throw Problem(
                description: "error: the gateway's own modules build with \(identity), and this build takes it from "
                    + "the folder \(path) (a handler module's package names that folder): that copy would be built "
                    + "into the gateway in place of the one they resolve; depend on it by its repository, as the "
                    + "gateway does")
        }
    }

    /// The manifests (`Package.swift` and its `Package@swift-….swift` variants) in `folder`.
    static func manifests(in folder: URL) -> [URL] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.filter { $0 == "Package.swift" || ($0.hasPrefix("Package@") && $0.hasSuffix(".swift")) }.sorted()
            .map { folder.appending(path: $0) }
    }

    /// The build's scratch folder (`.build`), which holds this plugin's work folder as
    /// `plugins/outputs/<package>/<target>/…`.
    static func scratchFolder(of work: URL) -> URL? {
        let parts = work.standardizedFileURL.pathComponents
        guard let index = parts.lastIndex(of: "plugins"), index + 1 < parts.count, parts[index + 1] == "outputs" else {
            return nil
        }
        return URL(fileURLWithPath: NSString.path(withComponents: Array(parts[..<index])))
    }

    /// The folder of the package each target of `packages` (and of their dependencies, all the way down) belongs
    /// to, by target id.
    static func packageFolders(of packages: [Package]) -> [String: URL] { owners(of: packages, \.directoryURL) }

    /// The identity of the package each target of `packages` (and of their dependencies) belongs to, by target id.
    static func packageIds(of packages: [Package]) -> [String: String] { owners(of: packages, \.id) }

    /// The module names of every target of `root` and of the packages it depends on, all the way down.
    static func moduleNames(of root: Package) -> Set<String> {
        Set(
            packages(from: [root]).flatMap(\.targets).map {
                ($0 as? any SourceModuleTarget)?.moduleName ?? $0.name
            })
    }

    private static func owners<Value>(of packages: [Package], _ value: KeyPath<Package, Value>) -> [String: Value] {
        var owners: [String: Value] = [:]
        for package in Self.packages(from: packages) {
            for target in package.targets { owners[target.id] = package[keyPath: value] }
        }
        return owners
    }

    /// The package name SwiftPM passes as `-package-name` for a package identity, or one coarser: every character
    /// but a lowercase ASCII letter or digit becomes `_` (SwiftPM keeps some other letters), and so does a leading
    /// digit (SwiftPM replaces it; prefixing a `_` instead let `1storegate` and `_storegate`, one name to SwiftPM,
    /// pass as two: a twenty-eighth reviewer's). So two identities that SwiftPM gives one package name
    /// (`storegate-main` and `storegate.main`) have one here too.
    static func packageName(of identity: String) -> String {
        let name = identity.lowercased().unicodeScalars.enumerated().map { index, scalar -> Character in
            let letter = ("a"..."z").contains(scalar)
            let digit = ("0"..."9").contains(scalar)
            return letter || (digit && index > 0) ? Character(scalar) : "_"
        }
        return String(name)
    }

    /// Every regular file under a package's `folder`, but for build products, version control, and packages
    /// of their own inside it (a folder with its own manifest, such as a benchmarks package, is not built).
    static func files(in folder: URL) -> [URL] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in walk {
            let name = url.lastPathComponent
            let nested = FileManager.default.fileExists(atPath: url.appending(path: "Package.swift").path)
            if name == ".git" || name == ".swiftpm" || name.hasPrefix(".build") || nested {
                walk.skipDescendants()
            } else if (try? url.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]).isRegularFile)
                == true
            {
                // A link is read under its own name (a `.swift` link to a `.inc` file is Swift), through the link.
                files.append(url.standardizedFileURL)
            }
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The handler modules of this package's build: the target's dependencies under `Plugins/`.
    static func pluginFolderModules(of target: any Target, in package: Package) -> [any SourceModuleTarget] {
        let folder = package.directoryURL.appending(path: "Plugins").standardizedFileURL.path + "/"
        return target.dependencies.compactMap { dependency -> (any SourceModuleTarget)? in
            guard case .target(let dependencyTarget) = dependency,
                let module = dependencyTarget as? any SourceModuleTarget,
                module.directoryURL.standardizedFileURL.path.hasPrefix(folder)
            else { return nil }
            return module
        }
    }

    /// The handler modules from outside a storegate-build package adds: each library product the target depends
    /// on that is not this package's, by the module named like the product.
    static func addedModules(of target: any Target, excluding own: Set<String>) throws -> [any SourceModuleTarget] {
        try target.dependencies.compactMap { dependency -> (any SourceModuleTarget)? in
            guard case .product(let product) = dependency, !product.targets.allSatisfy({ own.contains($0.id) })
            else { return nil }
            guard let module = product.targets.first(where: { $0.name == product.name }) as? any SourceModuleTarget,
                product.targets.count == 1
            else {
                throw Problem(
                    description: "the library product \(product.name) is not a handler module: a handler module's "
                        + "product holds one module, named like the product (its main type's name too)")
            }
            return module
        }
    }

    /// What a handler module's dependencies reach, all the way down, short of this package's modules (the handler
    /// API a package from outside depends on, or another, which is refused).
    struct Reached {
        /// Macro modules: what a macro writes is in no source file.
        var macros: Set<String> = []
        /// Binary targets: what they hold cannot be read.
        var binaries: Set<String> = []
        /// Every target reached outside this package, and its name.
        var targetIds: [String] = []
        var targetNames: [String] = []
        /// Every file SwiftPM lists for the source modules reached (sources, headers, resources, others).
        var sourceFiles: [URL] = []
        /// The modules of this package reached, but the handler API.
        var packageModules: [String] = []
        /// The targets reached that are not Swift (C, C++, Objective-C, assembly, a system library's module map
        /// and headers), by name and id.
        var nativeTargets: [(name: String, id: String)] = []

        init(from dependencies: [TargetDependency], stoppingAt own: Set<String>, api: String) {
            var seen: Set<String> = []
            var pending = dependencies
            while let dependency = pending.popLast() {
                let targets: [any Target] =
                    switch dependency {
                    case .target(let target): [target]
                    case .product(let product): product.targets
                    @unknown default: []
                    }
                for target in targets where seen.insert(target.id).inserted {
                    if own.contains(target.id) {
                        if target.name != api { packageModules.append(target.name) }
                        continue
                    }
                    targetIds.append(target.id)
                    targetNames.append(target.name)
                    if target is BinaryArtifactTarget {
                        binaries.insert(target.name)
                    } else if !(target is SwiftSourceModuleTarget) {
                        nativeTargets.append((target.name, target.id))
                    }
                    if let module = target as? any SourceModuleTarget {
                        if module.kind == .macro { macros.insert(target.name) }
                        sourceFiles += module.sourceFiles.map(\.url)
                    }
                    pending += target.dependencies
                }
            }
        }
    }
}
