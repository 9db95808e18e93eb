import Foundation
import Testing

/// The promise, checked as the build checks a handler module: the handler API gives a module no way to deliver
/// content, grant a purchase, or read another section's secrets outside the verification. Each attack is a
/// small handler module, type-checked against the built handler API exactly as a real one is (no package
/// access) and checked by the registry as the build plugin checks it; the test passes only when the one that
/// must refuse it does, with the words given (and an honest module passes both, so a broken harness cannot
/// pass for a refusal).
@Suite struct SealTests {
    static let compiler = Result { try PluginCompiler(like: "DownloadHandler") }
    let registry = RegistryCheck()

    @Test func honestHandlerModulesCompileAndPassTheRegistry() async throws {
        let compiled = try await Self.compiler.get().typecheck(Attacks.honest)
        #expect(compiled.succeeded, "\(compiled.output)")
        let checked = try await registry.check(Attacks.honest, dependencies: ["GatewayHandlerAPI"])
        #expect(checked.succeeded, "\(checked.output)")
    }

    /// What a handler module sees has no public property with a narrower setter (`public private(set)`,
    /// `public package(set)`): such a stored property's key path casts to a writable one in another module. A
    /// read-only property is a stored property of narrower access behind a public getter.
    @Test func theHandlerAPIHasNoPublicPropertyWithANarrowerSetter() throws {
        let sources = AppBindingCheck.plugins.deletingLastPathComponent().appendingPathComponent("Sources")
        var files: [URL] = []
        for module in ["GatewayCore", "GatewayHandlerAPI"] {
            let folder = sources.appendingPathComponent(module)
            files += try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
                .map { folder.appendingPathComponent($0) }
        }
        files.append(sources.appendingPathComponent("GatewayText/JSONWriter.swift"))
        #expect(files.count > 40)
        let narrower =
            /(public|open)\s+(private|fileprivate|internal|package)\s*\(\s*set\s*\)|(private|fileprivate|internal|package)\s*\(\s*set\s*\)\s+(public|open)/
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains(narrower), "\(file.lastPathComponent) has a public property with a narrower setter")
        }
    }

    /// A source file's name may hold a comma, which once split the list of sources the plugin hands the check: a
    /// thirteenth reviewer's `Evil,Clean.swift` was read as two other files, `Evil` and `Clean.swift`.
    @Test func aSourceNamedWithACommaIsReadWhole() async throws {
        let checked = try await registry.check(
            "@testable import GatewayCore\n", dependencies: ["GatewayHandlerAPI"], fileName: "Evil,Clean.swift")
        #expect(!checked.succeeded)
        #expect(
            checked.output.contains("Evil,Clean.swift:1: error: handler module BypassPlugin uses @testable"),
            "\(checked.output)")
    }

    /// Well-kept packages a handler module may use (their own SPI, `@_silgen_name` of the runtime's functions,
    /// C sources, experimental syntax) pass the check of what a module reaches from outside: every file under
    /// their Sources and their manifests, of the packages this build checked out (a module reaches no tests).
    @Test func wellKeptPackagesPassTheCheckOfWhatAModuleReaches() async throws {
        let checkouts = AppBindingCheck.plugins.deletingLastPathComponent().appendingPathComponent(".build/checkouts")
        let packages = [
            "swift-crypto", "swift-nio", "swift-collections", "swift-atomics", "swift-log", "swift-metrics",
        ]
        var files: [String] = []
        for package in packages {
            let folder = checkouts.appendingPathComponent(package)
            files += try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasPrefix("Package") && $0.hasSuffix(".swift") }.map {
                    folder.appendingPathComponent($0).path
                }
            let walk = FileManager.default.enumerator(
                at: folder.appendingPathComponent("Sources"), includingPropertiesForKeys: [.isRegularFileKey])
            while let url = walk?.nextObject() as? URL {
                let nested = FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path)
                if url.lastPathComponent == ".git" || url.lastPathComponent.hasPrefix(".build") || nested {
                    walk?.skipDescendants()
                } else if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                    files.append(url.path)
                }
            }
        }
        #expect(files.count > 1_500, "the checkouts were found: \(files.count) files")
        let checked = try await registry.check(Attacks.honest, dependencies: ["GatewayHandlerAPI"], outsideFiles: files)
        #expect(checked.succeeded, "\(checked.output.prefix(3_000))")
    }

    /// A handler module's code runs only as the handler it registers: its extensions bind nowhere in the app,
    /// not even in the registry that imports it. Built with the features off once, to show the check sees a
    /// binding where there is one.
    /// SwiftPM lists a documentation catalog (`Docs.docc`, a folder) among a module's sources: the files under it
    /// are read like any other (swift-metrics' CoreMetrics has one, and was refused as an unreadable file).
    @Test func aFolderAmongAModulesSourcesIsReadFileByFile() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("docs-\(UUID().uuidString).docc")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("Articles"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "# CoreMetrics\n".write(to: folder.appendingPathComponent("Doc.md"), atomically: true, encoding: .utf8)
        let read = try await registry.check(Attacks.honest, outsideFiles: [folder.path])
        #expect(read.succeeded, "\(read.output)")
        try "Reach `$s11GatewayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ`.\n".write(
            to: folder.appendingPathComponent("Articles/Inside.md"), atomically: true, encoding: .utf8)
        let refused = try await registry.check(Attacks.honest, outsideFiles: [folder.path])
        #expect(!refused.succeeded)
        #expect(
            refused.output.contains("Articles/Inside.md:1: error: handler module")
                && refused.output.contains("names a symbol of GatewayCore"), "\(refused.output)")
    }

    @Test func aHandlerModulesExtensionsBindNowhereInTheApp() async throws {
        let check = try AppBindingCheck()
        let unguarded = try await check.build(Attacks.hijacker, withoutFeature: "MemberImportVisibility").bindings
        #expect(unguarded.contains { $0.contains("merging") }, "\(unguarded)")
        let bindings = try await check.build(Attacks.hijacker).bindings
        #expect(bindings.isEmpty, "\(bindings.joined(separator: "\n"))")
    }

    /// A module that declares types under other handler modules' names (as a macro can, out of the registry
    /// check's sight) does not take their places in the registry: each real handler is registered as itself.
    @Test func typesNamedLikeOtherHandlersDoNotTakeTheirPlaces() async throws {
        let built = try await AppBindingCheck().build(Attacks.shadower, readable: false)
        let expected =
            try FileManager.default.contentsOfDirectory(atPath: AppBindingCheck.plugins.path)
            .filter { $0.hasSuffix("Handler") }.map { "\($0).Type" } + ["BypassPlugin.Type"]
        #expect(built.registered.sorted() == expected.sorted(), "\(built.registered)")
    }

    /// What the build plugin hands the check is what SwiftPM builds: a source in a folder that holds a note named
    /// `Package.swift` (the plugin's walk leaves such a folder out as a package of its own), a source that is a link
    /// to a file of another name, and a package whose folder SwiftPM names as this package (`storegate.main` beside
    /// a root checked out as `storegate-main`: both get the package name `storegate_main`, and so `package`
    /// access). An eighth reviewer's; each built and leaked a file before.
    @Test func thePluginHandsTheCheckWhatSwiftPMBuilds() async throws {
        let opening = "@_spi(Reflection) import Swift\npublic let opened = 1\n"
        let built = try await PluginBuild.build([
            PluginBuild.Helper(
                folder: "nested",
                files: [
                    (
                        "Package.swift",
                        PluginBuild.manifest.replacingOccurrences(
                            of: #"name: "HELPER")"#, with: #"name: "HELPER", exclude: ["Package.swift"])"#)
                    ),
                    ("Sources/HELPER/Package.swift", "// notes on this folder\n"),
                    ("Sources/HELPER/Fields.swift", opening),
                ]),
            PluginBuild.Helper(
                folder: "linked", files: [("impl.inc", opening)],
                links: [("Sources/HELPER/Impl.swift", "../../impl.inc")]),
            PluginBuild.Helper(
                folder: "storegate.main", files: [("Sources/HELPER/Plain.swift", "public let plain = 1\n")]),
        ])
        #expect(!built.succeeded)
        #expect(
            built.output.contains(
                "Sources/Helper0/Fields.swift:1: error: handler module Probe0Handler depends on this file, which "
                    + "imports Swift with @_spi"), "\(built.output.suffix(3_000))")
        #expect(
            built.output.contains(
                "Sources/Helper1/Impl.swift:1: error: handler module Probe1Handler depends on this file, which imports "
                    + "Swift with @_spi"), "\(built.output.suffix(3_000))")
        #expect(
            built.output.contains(
                "error: handler module Probe2Handler depends on a package from outside whose package name is "
                    + "storegate_main, this package's own"), "\(built.output.suffix(3_000))")
    }

    /// SwiftPM makes a leading digit of a package's identity `_`: a root in `1storegate-main` and a package from
    /// outside in `_storegate-main` are one package to it (storegate-build's package names the checkout as the
    /// modules do, so a module package chooses that name). A twenty-eighth reviewer's module package opened every
    /// `package` declaration of the handler API so, and served a file of its choosing.
    @Test func aPackageNamedAsThisOneWithALeadingDigitMadeUnderscoreIsRefused() async throws {
        let built = try await PluginBuild.build(
            [
                PluginBuild.Helper(
                    folder: "_storegate-main", files: [("Sources/HELPER/Plain.swift", "public let a = 1\n")])
            ],
            root: "1storegate-main")
        #expect(!built.succeeded)
        #expect(
            built.output.contains(
                "error: handler module Probe0Handler depends on a package from outside whose package name is "
                    + "_storegate_main, this package's own"), "\(built.output.suffix(3_000))")
    }

    /// A twenty-ninth reviewer's: in the repository, a handler module's package from a folder with the identity of
    /// one the gateway's own modules build with (a copy of swift-nio-ssl) was built for the whole gateway.
    @Test func aLocalCopyOfAPackageTheGatewayBuildsWithIsRefused() async throws {
        let built = try await PluginBuild.build(
            [
                PluginBuild.Helper(
                    folder: "swift-nio-ssl", files: [("Sources/HELPER/Journal.swift", "public let a = 1\n")])
            ],
            gatewayUses: [0])
        #expect(!built.succeeded)
        #expect(
            built.output.contains(
                "error: the gateway's own modules build with swift-nio-ssl, and this build takes it from the folder "),
            "\(built.output.suffix(3_000))")
    }

    /// A thirtieth reviewer's copy came in through a product of the handler's package that the handler never used:
    /// SwiftPM builds the copy for the whole graph all the same, so no handler module needs to reach it.
    @Test func aLocalCopyNoHandlerModuleReachesIsRefusedToo() async throws {
        let built = try await PluginBuild.build(
            [
                PluginBuild.Helper(folder: "plain", files: [("Sources/HELPER/Plain.swift", "public let b = 2\n")]),
                PluginBuild.Helper(
                    folder: "swift-nio-ssl", files: [("Sources/HELPER/Journal.swift", "public let a = 1\n")]),
            ],
            gatewayUses: [1], unhandled: [1])
        #expect(!built.succeeded)
        #expect(
            built.output.contains(
                "error: the gateway's own modules build with swift-nio-ssl, and this build takes it from the folder "),
            "\(built.output.suffix(3_000))")
        #expect(!built.output.contains("Probe1Handler"), "no handler module reaches it")
    }

    /// A build the check refuses has already compiled what the handler's packages hold, and leaves it: a thirtieth
    /// reviewer's module named `_Builtin_stddef`, refused, was loaded as an overlay by the next build, whose module
    /// was clean. The check refuses a build folder that holds a module named like the toolchain's that no package of
    /// the build defines.
    @Test func aModuleAnEarlierBuildLeftUnderAToolchainNameIsRefused() async throws {
        let built = try await PluginBuild.build(
            [PluginBuild.Helper(folder: "plain", files: [("Sources/HELPER/Plain.swift", "public let b = 2\n")])],
            staleModules: ["_Builtin_stddef", "Plain"])
        #expect(!built.succeeded)
        #expect(built.output.contains("error: the build folder holds "), "\(built.output.suffix(3_000))")
        #expect(built.output.contains("/debug/Modules/_Builtin_stddef.swiftmodule, a module named like one of"))
        #expect(!built.output.contains("Modules/Plain.swiftmodule"), "a name of no toolchain module is left alone")
    }

    /// GRDB, which the ledger builds on, imports `string_h` when it can and Glibc when not: a thirtieth reviewer's
    /// module named `string_h` (a name no toolchain here has) was imported by it, and was handed the ledger's
    /// writer connection. A name the gateway's sources test with `canImport` is refused as a module's name, and as
    /// a module an earlier build left.
    static let testsForStringH =
        "#if canImport(\n    /* as GRDB tests it, on two lines (a thirty-first reviewer's) */ string_h)\n"
        + "public let libc = \"string_h\"\n#else\npublic let libc = \"Glibc\"\n#endif\n"

    @Test func aModuleNamedLikeOneTheGatewayTestsForWithCanImportIsRefused() async throws {
        let helper = PluginBuild.Helper(
            folder: "libc",
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "HELPER", products: [.library(name: "HELPER", targets: ["HELPER"])],
                        targets: [.target(name: "HELPER", dependencies: ["string_h"]), .target(name: "string_h")])
                    """
                ),
                ("Sources/HELPER/Plain.swift", "import string_h\npublic let b = shim\n"),
                ("Sources/string_h/Shim.swift", "public let shim = 2\n"),
            ])
        let built = try await PluginBuild.build([helper], apiSource: Self.testsForStringH)
        #expect(!built.succeeded)
        #expect(
            built.output.contains(
                "error: handler module Probe0Handler depends on a module named string_h, which the gateway's packages "
                    + "test for with canImport ("), "\(built.output.suffix(3_000))")
        #expect(
            built.output.contains("Sources/GatewayHandlerAPI/API.swift)"), "the message names the file that tests it")
        let left = try await PluginBuild.build(
            [PluginBuild.Helper(folder: "plain", files: [("Sources/HELPER/Plain.swift", "public let b = 2\n")])],
            staleModules: ["string_h"], apiSource: Self.testsForStringH)
        #expect(!left.succeeded)
        #expect(
            left.output.contains("/debug/Modules/string_h.swiftmodule, a module named like"),
            "\(left.output.suffix(3_000))")
    }

    /// A package named like swift-nio-ssl (one product, NIOSSL), `sent` telling the gateway's copy from another.
    static func nioSSL(folder: String, sent: Int, manifestTail: String = "") -> PluginBuild.Helper {
        let manifest = """
            // swift-tools-version: 6.0
            import PackageDescription
            let package = Package(
                name: "swift-nio-ssl", products: [.library(name: "NIOSSL", targets: ["NIOSSL"])],
                targets: [.target(name: "NIOSSL")])
            """
        return PluginBuild.Helper(
            folder: folder,
            files: [
                ("Package.swift", manifest + manifestTail), ("Sources/NIOSSL/TLS.swift", "public let sent = \(sent)\n"),
            ])
    }

    /// A handler's helper package in `folder` that depends on swift-nio-ssl as `requirement` says.
    static func tlsHelper(folder: String, requirement: String) -> PluginBuild.Helper {
        PluginBuild.Helper(
            folder: folder,
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "HELPER", products: [.library(name: "HELPER", targets: ["HELPER"])],
                        dependencies: [.package(\(requirement))],
                        targets: [
                            .target(name: "HELPER", dependencies: [.product(name: "NIOSSL", package: "swift-nio-ssl")])
                        ])
                    """
                ),
                ("Sources/HELPER/Journal.swift", "import NIOSSL\npublic let journal = sent\n"),
            ])
    }

    /// A thirtieth reviewer's: in the repository, a handler module's helper package named a fork of swift-nio-ssl
    /// by repository URL (one that journaled what AsyncHTTPClient sent Apple), and SwiftPM built it for the whole
    /// gateway. A package the gateway's own modules build with must come from a location their manifests name.
    @Test func aForkByRepositoryOfAPackageTheGatewayBuildsWithIsRefused() async throws {
        let upstream = Self.nioSSL(folder: "upstream/swift-nio-ssl", sent: 0)
        // A thirty-first reviewer's fork named its own location in its manifest, which counted while every gateway
        // package's manifest did: a package never vouches for itself.
        let fork = Self.nioSSL(
            folder: "fork/swift-nio-ssl", sent: 1, manifestTail: "\nlet home = \"file://FOLDER/fork/swift-nio-ssl\"\n")
        let helper = Self.tlsHelper(
            folder: "tlshelper", requirement: "url: \"file://FOLDER/fork/swift-nio-ssl\", from: \"1.0.0\"")
        // The fork's location in a comment of the gateway's manifest does not make it one the gateway names.
        let built = try await PluginBuild.build(
            [helper], repositories: [upstream, fork], gatewayProducts: [("NIOSSL", 0)],
            rootComment: "// Journaled: .package(url: \"file://FOLDER/fork/swift-nio-ssl\", from: \"1.0.0\")")
        #expect(!built.succeeded)
        #expect(
            built.output.contains(
                "error: the gateway's own modules build with swift-nio-ssl, and this build takes it from file://"),
            "\(built.output.suffix(3_000))")
        #expect(
            built.output.contains(
                "/fork/swift-nio-ssl/, which none of the manifests of the gateway's packages that depend on it names "
                    + "(they name file:///"))
        // The same helper naming the gateway's own location (spelled with a trailing slash) passes the check (the
        // small package's app, which imports no gateway, fails to compile after it).
        let honest = Self.tlsHelper(
            folder: "tlshelper", requirement: "url: \"file://FOLDER/upstream/swift-nio-ssl/\", from: \"1.0.0\"")
        let same = try await PluginBuild.build(
            [honest], repositories: [upstream, fork], gatewayProducts: [("NIOSSL", 0)])
        #expect(
            same.output.contains("Checking handler modules and generating the registry of compiled-in handlers"),
            "\(same.output.suffix(3_000))")
        #expect(!same.output.contains("this build takes it from"), "\(same.output.suffix(3_000))")
    }

    /// A thirty-sixth reviewer's: a module of another package renamed `string_h` by `moduleAliases` (GRDB imports
    /// `string_h` in place of Glibc when it can) is checked under the name it is built with.
    @Test func aModuleRenamedByModuleAliasesIsCheckedUnderItsNewName() async throws {
        let innocent = PluginBuild.Helper(
            folder: "innocentlib",
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "innocentlib", products: [.library(name: "Innocent", targets: ["Innocent"])],
                        targets: [.target(name: "Innocent")])
                    """
                ),
                ("Sources/Innocent/Shim.swift", "public let shim = 2\n"),
            ])
        let aliaser = PluginBuild.Helper(
            folder: "aliaser",
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "HELPER", products: [.library(name: "HELPER", targets: ["HELPER"])],
                        dependencies: [.package(path: "../innocentlib")],
                        targets: [
                            .target(
                                name: "HELPER",
                                dependencies: [
                                    .product(
                                        name: "Innocent", package: "innocentlib", moduleAliases: ["Innocent": "string_h"])
                                ])
                        ])
                    """
                ),
                ("Sources/HELPER/Plain.swift", "import Innocent\npublic let b = shim\n"),
            ])
        let built = try await PluginBuild.build([innocent, aliaser], unhandled: [0], apiSource: Self.testsForStringH)
        #expect(!built.succeeded)
        #expect(
            built.output.contains(
                "error: handler module Probe1Handler depends on a module named string_h, which the gateway's packages "
                    + "test for with canImport ("), "\(built.output.suffix(3_000))")
    }

    /// A thirty-fourth reviewer's: a C target of a handler's helper package defined libfcgi's `FCGX_PutStr` (the
    /// binary's definition wins over the shared library's, for the gateway's own calls), its name made by the
    /// preprocessor so that no spelling check sees it; it read every answer and turned a 401 into content. A system
    /// library's header can define a function too. Code other than Swift comes from the gateway's own packages
    /// only: the same kind of C package, one the gateway builds with, passes.
    @Test func codeOtherThanSwiftFromOutsideTheGatewaysPackagesIsRefused() async throws {
        let tap = PluginBuild.Helper(
            folder: "ctaplib",
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "ctaplib", products: [.library(name: "HELPER", targets: ["HELPER"])],
                        targets: [.target(name: "CHELPER"), .target(name: "HELPER", dependencies: ["CHELPER"])])
                    """
                ),
                (
                    "Sources/CHELPER/tap.c",
                    """
                    #include "tap.h"
                    #define JOIN(a, b) a##b
                    #define F(name) JOIN(FCGX, _##name)
                    typedef struct F(Stream) F(Stream);
                    static int seen;
                    int F(PutStr)(const char *bytes, int count, F(Stream) *stream) { seen += count; return count; }
                    int tap_seen(void) { return seen; }
                    """
                ),
                ("Sources/CHELPER/include/tap.h", "int tap_seen(void);\n"),
                ("Sources/HELPER/Tap.swift", "import CHELPER\npublic func seen() -> Int32 { tap_seen() }\n"),
            ])
        let system = PluginBuild.Helper(
            folder: "syslib",
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "syslib", products: [.library(name: "HELPER", targets: ["HELPER"])],
                        targets: [
                            .systemLibrary(name: "CSysHELPER"), .target(name: "HELPER", dependencies: ["CSysHELPER"]),
                        ])
                    """
                ),
                ("Sources/CSysHELPER/module.modulemap", "module CSysHELPER [system] {\n  header \"shim.h\"\n}\n"),
                ("Sources/CSysHELPER/shim.h", "static inline int twice(int x) { return 2 * x; }\n"),
                ("Sources/HELPER/Twice.swift", "import CSysHELPER\npublic func four() -> Int32 { twice(2) }\n"),
            ])
        // A thirty-fifth's: a Swift target whose C settings give it a header search path compiles the headers of a
        // module map found there into its own object, C definitions and all.
        let header = PluginBuild.Helper(
            folder: "hdrtap",
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "hdrtap", products: [.library(name: "HELPER", targets: ["HELPER"])],
                        targets: [.target(name: "HELPER", cSettings: [.headerSearchPath("../../shim")])])
                    """
                ),
                ("shim/module.modulemap", "module CShimHELPER {\n  header \"tap.h\"\n  export *\n}\n"),
                (
                    "shim/tap.h",
                    """
                    #define JOIN(a, b) a##b
                    #define F(name) JOIN(FCGX, _##name)
                    int F(PutStr)(const char *bytes, int count, void *stream) { return count; }
                    """
                ),
                ("Sources/HELPER/Tap.swift", "@_implementationOnly import CShimHELPER\npublic let tapped = 1\n"),
            ])
        let refused = try await PluginBuild.build([tap, system, header])
        #expect(!refused.succeeded)
        #expect(
            refused.output.contains(
                "error: handler module Probe0Handler reaches CHelper0, a target of ctaplib that is not Swift"),
            "\(refused.output.suffix(3_000))")
        #expect(
            refused.output.contains(
                "error: handler module Probe1Handler reaches CSysHelper1, a target of syslib that is not Swift"),
            "\(refused.output.suffix(3_000))")
        #expect(
            refused.output.contains(
                "hdrtap/Package.swift:5: error: handler module Probe2Handler reaches the package of this manifest, "
                    + "which gives its targets C settings"), "\(refused.output.suffix(3_000))")
        // A C package the gateway builds with (from a repository, as the gateway names it) passes.
        let shim = PluginBuild.Helper(
            folder: "upstream/cshim",
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "cshim", products: [.library(name: "CShim", targets: ["CShim"])],
                        targets: [.target(name: "CShim")])
                    """
                ),
                ("Sources/CShim/shim.c", "#include \"shim.h\"\nint shim_twice(int x) { return 2 * x; }\n"),
                ("Sources/CShim/include/shim.h", "int shim_twice(int x);\n"),
            ])
        let user = PluginBuild.Helper(
            folder: "shimuser",
            files: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "HELPER", products: [.library(name: "HELPER", targets: ["HELPER"])],
                        dependencies: [.package(url: "file://FOLDER/upstream/cshim", from: "1.0.0")],
                        targets: [.target(name: "HELPER", dependencies: [.product(name: "CShim", package: "cshim")])])
                    """
                ),
                ("Sources/HELPER/Four.swift", "import CShim\npublic func four() -> Int32 { shim_twice(2) }\n"),
            ])
        let own = try await PluginBuild.build([user], repositories: [shim], gatewayProducts: [("CShim", 0)])
        #expect(
            own.output.contains("Checking handler modules and generating the registry of compiled-in handlers"),
            "\(own.output.suffix(3_000))")
        #expect(!own.output.contains("error: handler module"), "\(own.output.suffix(3_000))")
    }

    /// A thirty-first reviewer's: the gateway's own location at a commit its owners never released (a pull
    /// request's head, which GitHub serves from the base repository), asked for by a handler's helper package.
    @Test func theGatewaysOwnRepositoryAtABranchIsRefused() async throws {
        var upstream = Self.nioSSL(folder: "upstream/swift-nio-ssl", sent: 0)
        upstream.later = [("Sources/NIOSSL/TLS.swift", "public let sent = 1  // journaled\n")]
        let helper = Self.tlsHelper(
            folder: "prhelper", requirement: "url: \"file://FOLDER/upstream/swift-nio-ssl\", branch: \"pr-head\"")
        let built = try await PluginBuild.build([helper], repositories: [upstream], gatewayProducts: [("NIOSSL", 0)])
        #expect(!built.succeeded)
        #expect(
            built.output.contains(
                "error: the gateway's own modules build with swift-nio-ssl, and this build takes it at commit "),
            "\(built.output.suffix(3_000))")
        #expect(built.output.contains("(no version), a revision or branch, not a released version"))
    }

    static let unnamed = "which none of the manifests of the gateway's packages that depend on it names"

    /// A manifest as async-http-client's names swift-nio-ssl, with a fork's location in a comment.
    static let gatewayManifest = """
        // swift-tools-version: 5.10
        import PackageDescription
        // Not this one: .package(url: "http://127.0.0.1:8099/swift-nio-ssl", from: "2.37.7")
        let package = Package(
            name: "async-http-client",
            dependencies: [.package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.27.1")])
        """

    /// A thirty-first reviewer's: a location that reads as GitHub's to a careless reading and is another host to
    /// git (`?@`, `#@`), and the gateway's own location at a pull request's head (a revision) or a branch; and
    /// what is not the gateway's own: a fork's location named only in a comment, a path with `..`.
    @Test(arguments: [
        ("http://127.0.0.1:8099?@github.com/apple/swift-nio-ssl", "2.37.7", Self.unnamed),
        ("http://127.0.0.1:8099#@github.com/apple/swift-nio-ssl", "2.37.7", Self.unnamed),
        ("http://127.0.0.1:8099/swift-nio-ssl", "2.37.7", Self.unnamed),
        ("https://github.com/apple/../attacker/swift-nio-ssl", "2.37.7", Self.unnamed),
        ("https://x%40github.com/apple/swift-nio-ssl", "2.37.7", Self.unnamed),
        (
            "https://github.com/apple/swift-nio-ssl.git", "406af784f80a6a68a7bcf04d72c0c02283b78f90",
            "at commit c0ffee (406af784f80a6a68a7bcf04d72c0c02283b78f90), a revision or branch, not a released version"
        ),
        ("https://github.com/apple/swift-nio-ssl", "no version", "at commit c0ffee (no version), a revision or branch"),
    ])
    func aGatewayPackageFromElsewhereOrAtARevisionIsRefused(location: String, version: String, refusal: String)
        async throws
    {
        let run = try await registry.checkOrigin(("swift-nio-ssl", location, version), manifest: Self.gatewayManifest)
        #expect(!run.succeeded)
        #expect(run.output.contains("error: the gateway's own modules build with swift-nio-ssl"), "\(run.output)")
        #expect(run.output.contains(refusal), "\(run.output)")
    }

    /// A package the gateway builds with, taken from a package registry (a mirror of its location to a registry
    /// identity, or a registry identity that collides with its own) is refused, at any version: only repositories
    /// the gateway's manifests name are trusted. Round 32 showed a mirror of Yams to a registry of the reviewer's
    /// own reading `apple.shared_secret` from the config Yams parses.
    @Test func aGatewayPackageFromAPackageRegistryIsRefused() async throws {
        let run = try await registry.checkOrigin(
            ("swift-nio-ssl", "https://github.com/apple/swift-nio-ssl", "2.37.6"), manifest: Self.gatewayManifest,
            registry: "apple.swift-nio-ssl")
        #expect(!run.succeeded)
        #expect(
            run.output.contains(
                "error: the gateway's own modules build with swift-nio-ssl, and this build takes it from a package "
                    + "registry, as apple.swift-nio-ssl 2.37.6"), "\(run.output)")
    }

    /// The gateway's own location, however SwiftPM spells it, at a released version, passes.
    @Test(arguments: [
        "https://github.com/apple/swift-nio-ssl.git", "https://github.com/apple/swift-nio-ssl",
        "https://GitHub.com/Apple/swift-nio-ssl/", "git@github.com:apple/swift-nio-ssl.git",
        "ssh://git@github.com/apple/swift-nio-ssl",
    ])
    func theGatewaysOwnLocationAtAVersionPasses(location: String) async throws {
        let run = try await registry.checkOrigin(("swift-nio-ssl", location, "2.37.6"), manifest: Self.gatewayManifest)
        #expect(run.succeeded, "\(run.output)")
    }

    @Test(arguments: Attacks.all)
    func anAttackIsRefused(_ attack: Attacks.Attack) async throws {
        let source = Attacks.header + attack.source
        switch attack.refusedBy {
        case .compiler:
            let result = try await Self.compiler.get().typecheck(source)
            #expect(!result.succeeded, "the compiler accepted: \(attack.name)")
            #expect(result.output.contains(attack.refusal), "\(attack.name): \(result.output)")
        case .registry:
            let result = try await registry.check(
                source, dependencies: attack.dependencies, macros: attack.macros, binaries: attack.binaries,
                outside: attack.outside, outsideModules: attack.outsideModules)
            #expect(!result.succeeded, "the registry accepted: \(attack.name)")
            #expect(result.output.contains(attack.refusal), "\(attack.name): \(result.output)")
            #expect(result.output.contains("handler module BypassPlugin"), "\(result.output)")
        }
    }
}
