// swift-tools-version: 6.2
import PackageDescription

/// Handler modules compiled into `storegate`, with the modules each one imports. Each one is a folder
/// `Plugins/<Name>/` whose main type is named `<Name>`; the registry of compiled-in handlers is generated
/// from this list by HandlerRegistryPlugin.
let handlers: [(name: String, dependencies: [Target.Dependency])] = [
    ("CatalogHandler", ["GatewayCore", "ProductCatalog"]),
    (
        "DownloadHandler",
        [
            "GatewayCore", "ProductCatalog", "PurchaseVerification",
            .product(name: "CoreMetrics", package: "swift-metrics"),
        ]
    ),
    ("EntitlementsHandler", ["GatewayCore", "PurchaseVerification"]),
    ("MetricsHandler", ["GatewayCore"]),
    ("NotificationsHandler", ["GatewayCore", "PurchaseVerification"]),
    ("RestoreSyncHandler", ["GatewayCore", "PurchaseVerification"]),
    ("StatusHandler", ["GatewayCore", "PurchaseVerification"]),
    ("SupportHandler", ["GatewayCore", "PurchaseVerification"]),
    ("VerifyHandler", ["GatewayCore", "PurchaseVerification"]),
]
let handlerModules = handlers.map(\.name)

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .treatAllWarnings(as: .error),
]

let package = Package(
    name: "storegate",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "storegate", targets: ["storegate"]),
        .library(name: "GatewayCore", targets: ["GatewayCore"]),
        .library(name: "FastCGIFront", targets: ["FastCGIFront"]),
        .library(name: "ProductCatalog", targets: ["ProductCatalog"]),
        .library(name: "PurchaseVerification", targets: ["PurchaseVerification"]),
        .library(name: "AppStoreReceipts", targets: ["AppStoreReceipts"]),
        .library(name: "PurchaseLedger", targets: ["PurchaseLedger"]),
        .library(name: "AppStoreSignedData", targets: ["AppStoreSignedData"]),
        .library(name: "AppStoreServerAPI", targets: ["AppStoreServerAPI"]),
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
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.21.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.7.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CFastCGI",
            pkgConfig: "fcgi",
            providers: [.apt(["libfcgi-dev"])]
        ),
        .target(
            name: "GatewayCore",
            dependencies: [
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "ProductCatalog",
            dependencies: ["GatewayCore", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: strict
        ),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(
            name: "PurchaseLedger",
            dependencies: ["GatewayCore", "CLibPQ", .product(name: "GRDB", package: "GRDB.swift")],
            swiftSettings: strict
        ),
        // The store-neutral seam: credentials, backends, the verification service, content routes.
        .target(
            name: "PurchaseVerification",
            dependencies: [
                "GatewayCore", "ProductCatalog", "PurchaseLedger", "ByteCoding",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            swiftSettings: strict
        ),
        .target(
            name: "AppStoreReceipts",
            dependencies: [
                "GatewayCore", "PurchaseVerification", "AppStoreSignedData", "AppStoreServerAPI",
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
                "GatewayCore", "AppStoreSignedData", "ByteCoding",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
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
            dependencies: ["CFastCGI", "GatewayCore", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strict
        ),
        .target(
            name: "StoreGateApp",
            dependencies: [
                "GatewayCore", "FastCGIFront", "PurchaseLedger", "PurchaseVerification", "AppStoreReceipts",
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
        .executableTarget(name: "HandlerRegistryGenerator", swiftSettings: strict),
        .plugin(name: "HandlerRegistryPlugin", capability: .buildTool(), dependencies: ["HandlerRegistryGenerator"]),

        // Test-only gateway: the real application plus handlers that exist to exercise the front.
        .target(
            name: "TestbedHandlers",
            dependencies: [
                "GatewayCore", "PurchaseVerification", "AppStoreReceipts",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Tests/Support/TestbedHandlers",
            swiftSettings: strict
        ),
        .executableTarget(
            name: "storegate-testbed",
            dependencies: ["StoreGateApp", "TestbedHandlers"],
            path: "Tests/Support/storegate-testbed",
            swiftSettings: strict
        ),
        .testTarget(name: "GatewayCoreTests", dependencies: ["GatewayCore"], swiftSettings: strict),
        .testTarget(name: "ByteCodingTests", dependencies: ["ByteCoding"], swiftSettings: strict),
        .testTarget(name: "FastCGIFrontTests", dependencies: ["FastCGIFront"], swiftSettings: strict),
        .testTarget(name: "ProductCatalogTests", dependencies: ["ProductCatalog"], swiftSettings: strict),
        .testTarget(
            name: "PurchaseLedgerTests",
            dependencies: ["PurchaseLedger", .product(name: "GRDB", package: "GRDB.swift")], swiftSettings: strict),
        // Compiles bypass plugins against the built modules; passes only when the compiler refuses them.
        .testTarget(
            name: "SealTests", dependencies: ["PurchaseVerification", "DownloadHandler"], swiftSettings: strict),
        .testTarget(
            name: "PurchaseVerificationTests",
            dependencies: ["PurchaseVerification", "ProductCatalog", "PurchaseLedger"],
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
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Vectors"],
            swiftSettings: strict
        ),
        .testTarget(
            name: "AppStoreServerAPITests",
            dependencies: [
                "AppStoreServerAPI", "AppStoreSim", "SignedTestData", "GatewayCore", "ByteCoding",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "HandlerTests",
            dependencies: ["StoreGateApp"] + handlerModules.map { .target(name: $0) },
            swiftSettings: strict
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: [
                "storegate", "storegate-testbed", "storegate-appstore-sim", "PurchaseLedger", "PurchaseVerification",
                "SignedTestData", "AppStoreSignedData",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: strict
        ),
    ]
        + handlers.map { handler in
            .target(
                name: handler.name, dependencies: handler.dependencies, path: "Plugins/\(handler.name)",
                swiftSettings: strict)
        }
)
