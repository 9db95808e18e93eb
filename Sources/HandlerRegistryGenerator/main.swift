import Foundation

// Usage: HandlerRegistryGenerator [--output FOLDER] --api MODULE --package-modules M1,M2,...
//            [--registry compiled-in|added] [--handler NAME --depends D1,D2,... --sources FILE1,FILE2,... [--macros M1,...] [--binaries B1,...]
//             [--outside-sources LISTFILE]]... [--build-folder SCRATCH --graph-modules M1,M2,...]
//            [--gateway-sources LISTFILE] [--gateway-root ID] [--gateway-repository ID LOCATION VERSION REVISION]...
//            [--gateway-registry ID REGISTRY-IDENTITY VERSION]...
//            [--gateway-dependency PARENT CHILD]... [--gateway-manifest ID PATH]...
// Checks that every handler module depends on and imports no module of this package but the handler API, uses no
// macros or binary targets, and that no source of the packages from outside it reaches (listed in LISTFILE, one
// per line) reaches into this package, and that the build's module folders (under SCRATCH) hold no module named
// like one of the toolchain's (or one the gateway's sources, listed in the other LISTFILE, test with `canImport`)
// that no package of the build defines, and that each package the gateway builds with from a repository comes from
// a location the manifest of a package that depends on it names, at a released version, from the root down; then (with --output) writes the registry's Swift files into FOLDER: one
// per handler module that names its main type (named like the module), and the list the registry mounts (a plain
// handler as itself, a content handler behind verification). A refusal is printed as compiler diagnostics
// (FILE:LINE: error: ...) and exits 1, so it fails the build with the handler's name and what it must not reach.
let invocation: Invocation
do {
    invocation = try Invocation(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("HandlerRegistryGenerator: \(error)\n".utf8))
    exit(2)
}
let importTested = ImportTests.names(in: invocation.gatewaySources)
let refusals =
    RepositoryOrigins(
        root: invocation.gatewayRoot, manifests: invocation.gatewayManifests,
        dependencies: invocation.gatewayDependencies
    )
    .refusals(of: invocation.gatewayRepositories, registryCopies: invocation.gatewayRegistryCopies)
    + (invocation.buildFolder.map {
        StaleModules.refusals(in: $0, defined: invocation.graphModules, importTested: Set(importTested.keys))
    } ?? [])
    + invocation.handlers.flatMap {
        HandlerCheck(
            api: invocation.api, packageModules: invocation.packageModules, packageName: invocation.packageName,
            importTested: importTested
        )
        .refusals(of: $0)
    }
guard refusals.isEmpty else {
    FileHandle.standardError.write(Data(refusals.map { $0 + "\n" }.joined().utf8))
    exit(1)
}
if let output = invocation.output {
    for (file, source) in RegistrySource.render(invocation.registry, handlers: invocation.handlers.map(\.name)) {
        let path = output + "/" + file
        // Rewrite only on change, so an unchanged registry does not recompile its module.
        if (try? String(contentsOfFile: path, encoding: .utf8)) != source {
            try source.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}
