import ArgumentParser
import Foundation

/// `storegate-build`: builds a `storegate` with handler modules from outside this repository, as xcaddy builds
/// Caddy with modules of one's own. Each `--with` names a module package (a git URL and a version, or a local
/// folder); its library products are handler modules. The tool writes a package that depends on this checkout
/// and on each module package, builds it (the registry plugin checks every module as it checks ours), and puts
/// the binary in `--output`; `storegate version` then lists every module and where it came from.
@main
struct StoreGateBuild: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storegate-build",
        abstract: "Build a storegate with handler modules from outside this repository.",
        discussion: """
            Each --with is a module package: a git URL and a tag, branch or commit (https://host/you/coupons@1.2.0),
            or a local folder (../reader). Its library products are its handler modules, each a module named like
            the product, built against the GatewayHandlerAPI product alone.
            """
    )

    @Option(
        name: .customLong("with"),
        help: ArgumentHelp("A module package: <git URL>@<version>, or a local folder.", valueName: "package"))
    var modules: [String] = []

    @Option(help: ArgumentHelp("The folder the storegate binary is written to.", valueName: "folder"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "Only check a built storegate (one built in the repository, say): it must define no symbol of a library it loads.",
            valueName: "binary"))
    var checkBinary: String?

    @Option(
        help: ArgumentHelp(
            "The storegate checkout to build (default: the one this tool was built from).", valueName: "folder"))
    var storegate: String = Checkout.own

    @Option(
        help: ArgumentHelp(
            "Where the build keeps its package and build products; a second build there is quicker (default: <storegate>/.build-outside).",
            valueName: "folder"))
    var work: String?

    @Option(name: .shortAndLong, help: "debug or release.")
    var configuration: String = "release"

    func validate() throws {
        guard ["debug", "release"].contains(configuration) else {
            throw ValidationError("--configuration is debug or release, not \(configuration)")
        }
        guard (output == nil) != (checkBinary == nil) else {
            throw ValidationError("give --output (to build) or --check-binary (to check a built storegate)")
        }
        guard checkBinary == nil || modules.isEmpty else {
            throw ValidationError("--check-binary builds nothing: it takes no --with")
        }
    }

    func run() throws {
        do {
            if let checkBinary {
                try InterposedSymbols.check(
                    URL(fileURLWithPath: checkBinary), consequence: "Do not run it; find the module that does")
                log("\(checkBinary) defines no symbol of a library it loads")
                return
            }
            let checkout = try Checkout(storegate)
            let workFolder = URL(fileURLWithPath: work ?? checkout.folder.appending(path: ".build-outside").path)
                .standardizedFileURL
            let specs = try modules.map(ModuleSpec.init(parsing:))
            let packages = try specs.map { spec in
                try ModulePackage(spec.fetched(into: workFolder.appending(path: "modules")), spec: spec)
            }
            let gateway = try GatewayPackage(checkout: checkout, modules: packages, folder: workFolder)
            try gateway.write()
            log(
                "building storegate with \(packages.flatMap(\.handlerModules).count) module(s) from outside (\(configuration)); a first build takes minutes"
            )
            let binary = try gateway.build(configuration: configuration)
            try InterposedSymbols.check(binary, consequence: "It was not written to \(output ?? ".")")
            try install(binary)
        } catch let problem as BuildProblem {
            FileHandle.standardError.write(Data("storegate-build: error: \(problem.description)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// Copies the built binary to `--output` once it answers `version`: a handler name two modules claim is
    /// found there, by the registry's own rule, and leaves nothing in `--output`.
    private func install(_ binary: URL) throws {
        let version = try Subprocess.run(binary.path, ["version"])
        guard version.status == 0 else {
            throw BuildProblem(
                "the built storegate refuses its handler modules, so it was not written:\n"
                    + version.errors.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let folder = URL(fileURLWithPath: output ?? ".").standardizedFileURL
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let target = folder.appending(path: "storegate")
        let partial = folder.appending(path: ".storegate.partial")
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.copyItem(at: binary, to: partial)
        // In one step: a gateway running the binary, or a service manager starting it, never sees half of one.
        guard rename(partial.path, target.path) == 0 else {
            throw BuildProblem("cannot write \(target.path): \(String(cString: strerror(errno)))")
        }
        log("wrote \(target.path)\n\(version.output)")
    }
}

/// Progress for the person running the build, on standard error.
func log(_ message: String) {
    FileHandle.standardError.write(Data("storegate-build: \(message)\n".utf8))
}
