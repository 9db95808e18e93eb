import Foundation
import Testing

/// Handler modules from outside the repository, built in by `storegate-build` as an operator would: the example
/// reader module answers through nginx from the gateway it built; modules that reach past the handler API, or
/// whose names clash with another's, leave no binary. A first build compiles all of storegate again (minutes), so
/// the test command runs this suite on its own, after the others; the builds share one work folder.
@Suite(.serialized, .timeLimit(.minutes(40)))
struct OutsideModules {
    static let work = Binaries.checkout.appendingPathComponent(".build-outside")
    static var example: URL { Binaries.checkout.appendingPathComponent("examples/reader-handler") }
    static func fixture(_ name: String) -> URL {
        Binaries.checkout.appendingPathComponent("Tests/Support/OutsideModules/\(name)")
    }

    /// `storegate-build` with `modules` into a fresh output folder: its exit status, everything it printed, and
    /// the binary it wrote, if any.
    static func build(_ modules: [URL], storegate: URL? = nil) throws -> (status: Int32, log: String, binary: URL?) {
        let output = try SampleContent.makeFolder().appendingPathComponent("bin")
        let process = Process()
        process.executableURL = Binaries.buildFolder.appendingPathComponent("storegate-build")
        process.arguments =
            modules.flatMap { ["--with", $0.path] }
            + ["--output", output.path, "--work", work.path, "--configuration", "debug"]
            + (storegate.map { ["--storegate", $0.path] } ?? [])
        // One pipe for both: a long build log on one stream cannot stall the other.
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let log = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let binary = output.appendingPathComponent("storegate")
        return (
            process.terminationStatus, log, FileManager.default.isExecutableFile(atPath: binary.path) ? binary : nil
        )
    }

    @Test func theExampleReaderModuleIsBuiltInAndAnswersThroughNginxBehindTheAccount() throws {
        let built = try Self.build([Self.example])
        #expect(built.status == 0, "\(built.log.suffix(4000))")
        let binary = try #require(built.binary, "\(built.log.suffix(4000))")

        let version = try EndToEnd.CommandLine.run(["version"], binary: binary)
        #expect(version.status == 0, "\(version.errors)")
        let lines = version.output.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(lines.first == "storegate 0.1.0")
        #expect(lines.contains("reader ReaderHandler.ReaderHandler \(Self.example.path) (local folder)"), "\(lines)")
        #expect(lines.contains("catalog CatalogHandler.CatalogHandler built in"), "\(lines)")

        let gateway = try VerifyDeployment(
            apple: VerifyDeployment.trustingTestChain, delivery: "stream",
            extra: """
                accounts:
                  asserted_by: [signed]
                  secret: \(EndToEnd.Accounts.secret)
                handlers:
                  reader:
                    title: "Alice's <books>"

                """,
            moreRoutes: [("/v1/reader", "reader")], binary: binary)
        defer { gateway.stop() }
        let anonymous = try gateway.deployment.request("/v1/reader")
        #expect(anonymous.status == 401, "\(anonymous.text)")
        #expect(anonymous.errorCode == "account_required")

        let empty = try gateway.deployment.request("/v1/reader", headers: [EndToEnd.Accounts.asserting("alice")])
        #expect(empty.status == 200, "\(empty.text)")
        #expect(empty.header("Content-Type") == "text/html; charset=utf-8")
        #expect(empty.text.contains("<h1>Alice&#39;s &lt;books&gt;</h1>"), "\(empty.text)")
        #expect(empty.text.contains("Nothing here yet"))

        let issue = try EndToEnd.SignedTransactions.signed(SampleContent.issueId, EndToEnd.Accounts.id())
        let bought = try EndToEnd.Accounts.post("verify", [issue], as: "alice", to: gateway)
        #expect(bought.status == 200, "\(bought.text)")
        let library = try gateway.deployment.request("/v1/reader", headers: [EndToEnd.Accounts.asserting("alice")])
        #expect(library.status == 200, "\(library.text)")
        #expect(library.text.contains("<li data-product=\"\(SampleContent.issueId)\">Issue 1</li>"), "\(library.text)")
        let other = try gateway.deployment.request("/v1/reader", headers: [EndToEnd.Accounts.asserting("bob")])
        #expect(other.text.contains("Nothing here yet"), "\(other.text)")
        // The gateway's own routes are there beside it.
        #expect(try gateway.deployment.request("/v1/catalog").status == 200)
    }

    /// The example as a module of one's own is kept: in a git repository, naming storegate by a URL (one that
    /// answers nothing here; its last part is this checkout's folder's name, so SwiftPM takes the checkout for it),
    /// built in at a tag.
    @Test func aModuleFromAGitRepositoryIsBuiltInAtItsTagAndListedWithItsCommit() throws {
        let repository = try SampleContent.makeFolder().appendingPathComponent("reader-git")
        let files = FileManager.default
        try files.createDirectory(at: repository, withIntermediateDirectories: true)
        for folder in ["Sources", "Tests"] {
            try files.copyItem(
                at: Self.example.appendingPathComponent(folder), to: repository.appendingPathComponent(folder))
        }
        let storegate = Binaries.checkout.lastPathComponent
        let manifest = try String(contentsOf: Self.example.appendingPathComponent("Package.swift"), encoding: .utf8)
            .replacingOccurrences(
                of: #".package(name: "storegate", path: "../..")"#,
                with: ".package(url: \"https://git.example.invalid/you/\(storegate).git\", from: \"0.1.0\")"
            )
            .replacingOccurrences(of: #"package: "storegate""#, with: "package: \"\(storegate)\"")
        #expect(manifest.contains("git.example.invalid"))
        try manifest.write(to: repository.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        for arguments in [
            ["init", "-q"], ["add", "-A"],
            ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "reader"],
            ["tag", "1.0.0"],
        ] {
            #expect(try EndToEnd.CommandLine.run(["-C", repository.path] + arguments, binary: Self.git).status == 0)
        }
        let commit = try EndToEnd.CommandLine.run(["-C", repository.path, "rev-parse", "HEAD"], binary: Self.git)
            .output.prefix(12)

        let missing = try Self.build([URL(fileURLWithPath: repository.path + "@9.9.9")])
        #expect(missing.status != 0)
        #expect(missing.log.contains("storegate-build: error: \(repository.path) has no tag, branch or commit 9.9.9"))
        #expect(missing.binary == nil)

        let built = try Self.build([URL(fileURLWithPath: repository.path + "@1.0.0")])
        #expect(built.status == 0, "\(built.log.suffix(4000))")
        let binary = try #require(built.binary)
        let version = try EndToEnd.CommandLine.run(["version"], binary: binary)
        let lines = version.output.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(
            lines.contains("reader ReaderHandler.ReaderHandler \(repository.path)@1.0.0 (commit \(commit))"),
            "\(version.output)")
    }

    static let git = URL(fileURLWithPath: "/usr/bin/git")

    /// A module package that brings a package of the same name as one storegate builds with (a folder named
    /// `swift-log`, a fork) would have SwiftPM build that one for storegate too, which only warns: a twenty-eighth
    /// reviewer's `swift-crypto` kept every key storegate made. storegate-build refuses it before building.
    @Test func aModulePackageThatBringsItsOwnCopyOfOneOfStoregatesPackagesIsRefused() throws {
        let built = try Self.build([Self.moduleWithItsOwnSwiftLog()])
        Self.expectRefusedForItsSwiftLog(built)
    }

    /// The pins storegate's packages are compared with are the checkout's, which a build of the checkout with
    /// another manifest rewrites: a twenty-ninth reviewer's dropped swift-nio-ssl's pin, and a module package's copy
    /// of it then passed. storegate-build resolves the checkout first, which puts the pin back.
    @Test func aCheckoutWhosePinsLostAPackageStillRefusesAModulePackagesCopyOfIt() throws {
        let checkout = try SampleContent.makeFolder().appendingPathComponent("storegate")
        let clone = Process()
        clone.executableURL = Self.git
        clone.arguments = ["clone", "-q", Binaries.checkout.path, checkout.path]
        try clone.run()
        clone.waitUntilExit()
        try #require(clone.terminationStatus == 0)
        let pins = try Data(contentsOf: Binaries.checkout.appendingPathComponent("Package.resolved"))
        var resolved = try #require(try JSONSerialization.jsonObject(with: pins) as? [String: Any])
        let all = try #require(resolved["pins"] as? [[String: Any]])
        let kept = all.filter { $0["identity"] as? String != "swift-log" }
        try #require(kept.count == all.count - 1)
        resolved["pins"] = kept
        try JSONSerialization.data(withJSONObject: resolved).write(
            to: checkout.appendingPathComponent("Package.resolved"))

        let built = try Self.build([Self.moduleWithItsOwnSwiftLog()], storegate: checkout)
        Self.expectRefusedForItsSwiftLog(built)
    }

    /// A module package with its own `swift-log`, a folder beside it copied from storegate's.
    static func moduleWithItsOwnSwiftLog() throws -> URL {
        let folder = try SampleContent.makeFolder()
        let fork = folder.appendingPathComponent("swift-log")
        let files = FileManager.default
        try files.copyItem(at: Binaries.checkout.appendingPathComponent(".build/checkouts/swift-log"), to: fork)
        try? files.removeItem(at: fork.appendingPathComponent(".git"))
        let module = folder.appendingPathComponent("logging-module")
        try files.createDirectory(
            at: module.appendingPathComponent("Sources/ForkedLogHandler"), withIntermediateDirectories: true)
        try """
        // swift-tools-version: 6.2
        import PackageDescription
        let package = Package(
            name: "logging-module", platforms: [.macOS(.v15)],
            products: [.library(name: "ForkedLogHandler", targets: ["ForkedLogHandler"])],
            dependencies: [
                .package(name: "storegate", path: \(String(reflecting: Binaries.checkout.path))),
                .package(path: "../swift-log"),
            ],
            targets: [
                .target(
                    name: "ForkedLogHandler",
                    dependencies: [
                        .product(name: "GatewayHandlerAPI", package: "storegate"),
                        .product(name: "Logging", package: "swift-log"),
                    ])
            ])
        """.write(to: module.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import GatewayHandlerAPI\n".write(
            to: module.appendingPathComponent("Sources/ForkedLogHandler/ForkedLogHandler.swift"), atomically: true,
            encoding: .utf8)
        return module
    }

    static func expectRefusedForItsSwiftLog(_ built: (status: Int32, log: String, binary: URL?)) {
        #expect(built.status != 0)
        #expect(built.binary == nil)
        #expect(
            built.log.contains(
                "storegate-build: error: storegate builds with swift-log from https://github.com/apple/swift-log; a "
                    + "module package names another package of that name (a local folder)"),
            "\(built.log.suffix(3000))")
        #expect(!built.log.contains("Compiling"), "nothing is built")
    }

    @Test func outsideModulesThatReachPastTheHandlerAPIDoNotBuild() throws {
        let built = try Self.build([Self.fixture("bypass-handlers")])
        #expect(built.status != 0)
        #expect(built.binary == nil)
        // Each is refused by the registry's check, by name, with what it must not reach.
        #expect(
            built.log.contains("handler module LedgerWritingHandler names PurchaseLedger, a module of this package"),
            "\(built.log.suffix(6000))")
        #expect(
            built.log.contains(
                "handler module LedgerWritingHandler depends on StoreGateApp, a module of this package"),
            "\(built.log.suffix(6000))")
        #expect(
            built.log.contains(
                "handler module SmuggledContentHandler depends on StoreGateApp, a module of this package"),
            "\(built.log.suffix(6000))")
        #expect(built.log.contains("handler module TestableHandler uses @testable"), "\(built.log.suffix(6000))")
        #expect(
            built.log.contains(
                "handler module InterposingHandler reaches CInterpose, a target of bypass-handlers that is not Swift"),
            "\(built.log.suffix(6000))")
        // Renamed by moduleAliases, the application is still the gateway's own module (a thirty-sixth reviewer's).
        #expect(
            built.log.contains("handler module AliasedAppHandler depends on StoreGateApp, a module of this package"),
            "\(built.log.suffix(6000))")
        #expect(built.log.contains("storegate-build: error: the build failed"))
    }

    @Test func aModuleNamedLikeABuiltInOneIsRefusedBeforeBuildingNamingBoth() throws {
        let built = try Self.build([Self.fixture("module-clash")])
        #expect(built.status != 0)
        #expect(built.binary == nil)
        #expect(
            built.log.contains(
                "two handler modules are named CatalogHandler: one from storegate (built in), one from "
                    + "\(Self.fixture("module-clash").path) (local folder)"), "\(built.log)")
        #expect(!built.log.contains("Compiling"), "nothing is built")
    }

    @Test func twoModulesThatAnswerToOneHandlerNameLeaveNoBinaryNamingBoth() throws {
        let built = try Self.build([Self.example, Self.fixture("name-clash")])
        #expect(built.status != 0)
        #expect(built.binary == nil)
        #expect(
            built.log.contains(
                "both ReaderHandler.ReaderHandler and SecondReaderHandler.SecondReaderHandler have this name"),
            "\(built.log.suffix(4000))")
    }
}
