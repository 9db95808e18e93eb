// swift-tools-version: 6.2
import Foundation
import PackageDescription

/// Handler modules compiled into `storegate`. Each is a folder `Plugins/<Name>/` whose main type is named
/// `<Name>`, built against the handler API alone (GatewayHandlerAPI, and packages outside this one): it sees
/// what an outside module sees (`packageAccess: false`), and HandlerRegistryPlugin refuses one that depends on
/// or imports another module of this package. The registry of compiled-in handlers is generated from this list.
let handlers: [(name: String, dependencies: [Target.Dependency])] = [
    ("CatalogHandler", []),
    ("DownloadHandler", []),
    ("EntitlementsHandler", []),
    ("MetricsHandler", []),
    ("NotificationsHandler", []),
    ("OffersHandler", []),
    ("RestoreSyncHandler", []),
    ("StatusHandler", []),
    ("SupportHandler", []),
    ("VerifyHandler", []),
]
let handlerModules = handlers.map(\.name)

/// Every target's settings. MemberImportVisibility: a file sees the extension members of the modules it imports
/// and no others. Without it, the registry's import of every handler module made a handler's extensions (a more
/// specific `Dictionary.merging`, `HandlerModule.module`, `Gauge.init`) bind in every file of the app.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .treatAllWarnings(as: .error),
]

/// The toolchain's host libraries (`<toolchain>/usr/lib/swift/host`, where the compiler keeps the swift-syntax it
/// is built with): beside the PackageDescription library this manifest runs with (the toolchain that reads the
/// manifest builds the package), else beside the `swiftc` on the PATH.
let toolchainHost: String = {
    let suffix = "/pm/ManifestAPI/libPackageDescription.so"
    // Read to the end: String(contentsOfFile:) reads one page of a /proc file, and the library's line may be
    // past it (seen: the build then failed to find SwiftParser now and then).
    let maps = String(
        decoding: FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
    let beside = maps.split(separator: "\n").compactMap { $0.split(separator: " ").last }.filter {
        $0.hasSuffix(suffix)
    }
    .map { String($0.dropLast(suffix.count)) + "/host" }
    let onPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map {
        URL(fileURLWithPath: "\($0)/swiftc").resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("../lib/swift/host").standardizedFileURL.path
    }
    let found = (beside + onPath).first { FileManager.default.fileExists(atPath: "\($0)/SwiftParser.swiftmodule") }
    return found ?? "/usr/lib/swift/host"
}()

/// The registry's generator and check (the build plugin's tool). It reads outside packages' Swift with the parser
/// the toolchain ships (swift-syntax in lib/swift/host): Swift's own reading, with nothing to build.
/// (Tests/SealTests/PluginBuild.swift builds it from this definition.)
let registryGenerator: Target = .executableTarget(
    name: "HandlerRegistryGenerator",
    swiftSettings: strict + [.unsafeFlags(["-I", toolchainHost])],
    linkerSettings: [
        .unsafeFlags(["-L", toolchainHost, "-Xlinker", "-rpath", "-Xlinker", toolchainHost]),
        .linkedLibrary("SwiftParser"), .linkedLibrary("SwiftSyntax"),
    ]
)

let package = Package(
    name: "storegate",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "storegate", targets: ["storegate"]),
        // The one library a handler module builds against.
        .library(name: "GatewayHandlerAPI", targets: ["GatewayHandlerAPI"]),
        // Builds a storegate with handler modules from outside (docs/ARCHITECTURE.md, Extending it), through the
        // two products below: for the package it writes, never for a handler module (the registry's check refuses
        // a module that reaches StoreGateApp).
        .executable(name: "storegate-build", targets: ["storegate-build"]),
        .library(name: "StoreGateApp", targets: ["StoreGateApp"]),
        .plugin(name: "HandlerRegistryPlugin", targets: ["HandlerRegistryPlugin"]),
        .executable(name: "storegate-appstore-sim", targets: ["storegate-appstore-sim"]),
    ],
    dependencies: [
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.1.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.12.0"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // For the testbed's module that installs a process-wide tracer (AsyncHTTPClient's dependency).
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.1.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // The one JWT library: the App Store Server API's ES256 tokens, Google's RS256 login.
        .package(url: "https://github.com/vapor/jwt-kit", from: "5.7.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CFastCGI",
            pkgConfig: "fcgi",
            providers: [.apt(["libfcgi-dev"])]
        ),
        // Time and thread utilities shared by the runtime and the store clients; no dependencies.
        .target(name: "GatewayConcurrency", swiftSettings: strict),
        // Bytes of text built in place: JSON answers, logfmt lines and where they go.
        .target(
            name: "GatewayText",
            dependencies: ["GatewayConcurrency", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // What every handler and the front need: requests, responses, errors, a config section's reader.
        .target(
            name: "GatewayCore",
            dependencies: ["GatewayText", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        // Config documents read from YAML (the config file, the catalog).
        .target(
            name: "ConfigYAML", dependencies: ["GatewayCore", .product(name: "Yams", package: "Yams")],
            swiftSettings: strict),
        // The handler API: handler protocols, the capabilities a handler can be handed and their values.
        // Non-escapable entitlements need lifetime annotations (Swift 6.2's experimental Lifetimes).
        .target(
            name: "GatewayHandlerAPI",
            dependencies: [
                "GatewayCore", "GatewayText", .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict + [.enableExperimentalFeature("Lifetimes")]
        ),
        // The server runtime: loading a config into routes, the exchange of one request, metrics, stats.
        .target(
            name: "GatewayServer",
            dependencies: [
                "GatewayCore", "GatewayText", "GatewayConcurrency", "GatewayHandlerAPI", "ConfigYAML",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ProductCatalog",
            dependencies: [
                "GatewayHandlerAPI", "ConfigYAML", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(
            name: "PurchaseLedger",
            dependencies: ["CLibPQ", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        // Content in S3-compatible storage and behind CloudFront: SigV4 presigned URLs, CloudFront signed URLs,
        // and the operator's reads of the objects (`storegate content`, `check-config --remote`).
        .target(
            name: "ContentStorage",
            dependencies: [
                "GatewayCore", "StoreHTTP",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // The store-neutral seam: credentials, backends, the verification service, content routes.
        .target(
            name: "PurchaseVerification",
            dependencies: [
                "GatewayHandlerAPI", "GatewayConcurrency", "GatewayText", "ProductCatalog", "PurchaseLedger",
                "ByteCoding", "ContentStorage",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AppStoreReceipts",
            dependencies: [
                "GatewayHandlerAPI", "GatewayConcurrency", "PurchaseVerification", "AppStoreSignedData",
                "AppStoreServerAPI", "StoreHTTP",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The App Store Server API client: JWT, Apple's failure modes, budgets, verified answers.
        .target(
            name: "AppStoreServerAPI",
            dependencies: [
                "GatewayCore", "GatewayConcurrency", "GatewayText", "AppStoreSignedData", "StoreHTTP",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // Events to the app's own backends (the `events` section): the ledger's outbox delivered, signed.
        .target(
            name: "PurchaseEvents",
            dependencies: [
                "GatewayCore", "PurchaseLedger", "PurchaseVerification", "StoreHTTP",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // Google Play purchases (the `google` section), checked with the Play Developer API.
        .target(
            name: "GooglePlay",
            dependencies: [
                "GatewayHandlerAPI", "PurchaseVerification", "GooglePlayAPI",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        // The HTTP client every store's calls share (TLS verified, no redirects, no process-wide tracer).
        .target(
            name: "StoreHTTP",
            dependencies: [
                "GatewayConcurrency",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // Google Play Developer API client: the service account's login (RS256 through jwt-kit), Google's
        // failure modes, the per-minute budget.
        .target(
            name: "GooglePlayAPI",
            dependencies: [
                "ByteCoding", "GatewayCore", "GatewayConcurrency", "StoreHTTP",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        // Byte-level codecs shared by the verification modules, with no dependencies.
        .target(name: "ByteCoding", swiftSettings: strict),
        // App Store signed data (StoreKit 2 JWS), verified locally against configured roots.
        .target(
            name: "AppStoreSignedData",
            dependencies: [
                "ByteCoding",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // The App Store stand-in: speaks verifyReceipt on 127.0.0.1 for tests and the quickstart.
        .target(
            name: "AppStoreSim",
            dependencies: [
                "ByteCoding",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strict
        ),
        .executableTarget(name: "storegate-appstore-sim", dependencies: ["AppStoreSim"], swiftSettings: strict),
        .target(
            name: "FastCGIFront",
            dependencies: [
                "CFastCGI", "GatewayCore", "GatewayText", "GatewayServer",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "StoreGateApp",
            dependencies: [
                "GatewayServer", "GatewayText", "ConfigYAML", "FastCGIFront", "ProductCatalog", "PurchaseLedger",
                "PurchaseVerification", "PurchaseEvents", "AppStoreReceipts", "GooglePlay", "ContentStorage",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ] + handlerModules.map { .target(name: $0) },
            swiftSettings: strict,
            plugins: ["HandlerRegistryPlugin"]
        ),
        // mimalloc replaces glibc's malloc in the binary: libfcgi makes about 33 allocations per request and
        // glibc's per-thread cache overflows on them (README, Performance). apt libmimalloc-dev.
        .executableTarget(
            name: "storegate", dependencies: ["StoreGateApp"], swiftSettings: strict,
            linkerSettings: [.linkedLibrary("mimalloc")]
        ),
        registryGenerator,
        .executableTarget(
            name: "storegate-build",
            dependencies: [.product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: strict
        ),
        .plugin(name: "HandlerRegistryPlugin", capability: .buildTool(), dependencies: ["HandlerRegistryGenerator"]),

        // Test-only gateway: the real application plus handlers that exist to exercise the front and to attack
        // the seal (built as a handler module is: the handler API only, no package access), and a store.
        .target(
            name: "TestbedHandlers",
            dependencies: [
                "GatewayHandlerAPI", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Instrumentation", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            path: "Tests/Support/TestbedHandlers",
            packageAccess: false,
            swiftSettings: strict
        ),
        .target(
            name: "TestbedStores",
            dependencies: ["GatewayHandlerAPI", "PurchaseVerification"],
            path: "Tests/Support/TestbedStores",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "storegate-testbed",
            dependencies: ["StoreGateApp", "TestbedHandlers", "TestbedStores", "AppStoreReceipts"],
            path: "Tests/Support/storegate-testbed",
            swiftSettings: strict
        ),
        .testTarget(name: "GatewayCoreTests", dependencies: ["GatewayCore", "ConfigYAML"], swiftSettings: strict),
        .testTarget(name: "GatewayTextTests", dependencies: ["GatewayText", "GatewayCore"], swiftSettings: strict),
        .testTarget(name: "GatewayConcurrencyTests", dependencies: ["GatewayConcurrency"], swiftSettings: strict),
        .testTarget(
            name: "GatewayServerTests",
            dependencies: [
                "GatewayServer", "GatewayHandlerAPI", "ConfigYAML", "GatewayText",
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict),
        .testTarget(name: "ByteCodingTests", dependencies: ["ByteCoding"], swiftSettings: strict),
        .testTarget(
            name: "ContentStorageTests",
            dependencies: ["ContentStorage", "GatewayCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict),
        .testTarget(name: "FastCGIFrontTests", dependencies: ["FastCGIFront", "GatewayServer"], swiftSettings: strict),
        .testTarget(
            name: "ProductCatalogTests", dependencies: ["ProductCatalog", "GatewayHandlerAPI"], swiftSettings: strict),
        .testTarget(
            name: "PurchaseLedgerTests",
            dependencies: ["PurchaseLedger", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strict),
        .testTarget(
            name: "PurchaseEventsTests",
            dependencies: [
                "PurchaseEvents", "PurchaseLedger", "ConfigYAML", .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict),
        // Compiles attacking handler modules against the built handler API, as a handler module is compiled, and
        // runs the registry's checks on them; passes only when each attack is refused.
        .testTarget(
            name: "SealTests", dependencies: ["GatewayHandlerAPI", "DownloadHandler", "HandlerRegistryGenerator"],
            swiftSettings: strict),
        .testTarget(
            name: "PurchaseVerificationTests",
            dependencies: [
                "PurchaseVerification", "ProductCatalog", "PurchaseLedger", "GatewayHandlerAPI", "ConfigYAML",
            ],
            swiftSettings: strict
        ),
        // Apple's signed-data vectors and JWS minted from the test chain, for unit and end-to-end tests.
        .target(
            name: "SignedTestData",
            dependencies: [
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"), .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/Support/SignedTestData",
            exclude: ["Vectors"],
            swiftSettings: strict
        ),
        // Verifications per second per core, without a request around them (Tests/Benchmarks/verification-cpu.sh).
        .executableTarget(
            name: "storegate-verification-cpu", dependencies: ["AppStoreSignedData", "SignedTestData"],
            path: "Tests/Benchmarks/VerificationCPU", swiftSettings: strict
        ),
        .testTarget(
            name: "AppStoreSignedDataTests", dependencies: ["AppStoreSignedData", "SignedTestData"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AppStoreReceiptsTests",
            dependencies: [
                "AppStoreReceipts", "AppStoreSim", "PurchaseVerification", "AppStoreServerAPI", "SignedTestData",
                "GatewayHandlerAPI", "ConfigYAML", "GatewayServer",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Vectors"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [
                "AppStoreServerAPI", "AppStoreSim", "SignedTestData", "GatewayCore", "ConfigYAML", "GatewayServer",
                "ByteCoding",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        // Google's side for tests: a service account, the stand-in, and Google's own Python libraries as peers.
        .target(
            name: "GoogleTestSupport",
            dependencies: ["AppStoreSim", .product(name: "CryptoExtras", package: "swift-crypto")],
            path: "Tests/Support/GoogleTestSupport",
            swiftSettings: strict
        ),
        .testTarget(
            name: "GooglePlayAPITests",
            dependencies: [
                "GooglePlayAPI", "AppStoreSim", "ByteCoding", "ConfigYAML", "GatewayCore", "GoogleTestSupport",
                "StoreHTTP",
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "GooglePlayTests",
            dependencies: [
                "GooglePlay", "GooglePlayAPI", "PurchaseVerification", "PurchaseLedger", "GatewayHandlerAPI",
                "ConfigYAML",
                "AppStoreSim", "GoogleTestSupport",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HandlerTests",
            dependencies: ["StoreGateApp", "GatewayServer"] + handlerModules.map { .target(name: $0) },
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "storegate", "storegate-testbed", "storegate-appstore-sim", "storegate-build", "PurchaseLedger",
                "PurchaseVerification",
                "SignedTestData", "AppStoreSignedData", "GoogleTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
    ]
)

let handlerTargets: [Target] = handlers.map { handler in
    .target(
        name: handler.name, dependencies: ["GatewayHandlerAPI"] + handler.dependencies,
        path: "Plugins/\(handler.name)", packageAccess: false, swiftSettings: strict)
}
package.targets += handlerTargets
