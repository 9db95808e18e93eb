// swift-tools-version: 6.2
import PackageDescription

// Handler modules from outside that try to reach past the handler API, as a hurried author might; storegate-build
// must refuse each (Tests/EndToEndTests/OutsideModuleTests.swift), before anything of theirs is compiled in.
let package = Package(
    name: "bypass-handlers",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "LedgerWritingHandler", targets: ["LedgerWritingHandler"]),
        .library(name: "SmuggledContentHandler", targets: ["SmuggledContentHandler"]),
        .library(name: "TestableHandler", targets: ["TestableHandler"]),
        .library(name: "InterposingHandler", targets: ["InterposingHandler"]),
        .library(name: "AliasedAppHandler", targets: ["AliasedAppHandler"]),
    ],
    dependencies: [.package(name: "storegate", path: "../../../..")],
    targets: [
        // Imports the ledger's module to record a purchase of its own (with the gateway's application for the
        // ledger's own dependencies, so that it compiles).
        .target(
            name: "LedgerWritingHandler",
            dependencies: [
                .product(name: "GatewayHandlerAPI", package: "storegate"),
                .product(name: "StoreGateApp", package: "storegate"),
            ]),
        // Serves content through a helper module that depends on the gateway's own application.
        .target(
            name: "SmuggledContentHandler",
            dependencies: [.product(name: "GatewayHandlerAPI", package: "storegate"), "Smuggler"]),
        .target(name: "Smuggler", dependencies: [.product(name: "StoreGateApp", package: "storegate")]),
        // Opens the handler API's package internals in a debug build (a content delivery of its own making).
        .target(name: "TestableHandler", dependencies: [.product(name: "GatewayHandlerAPI", package: "storegate")]),
        // Defines, in C, a function of libfcgi, which the gateway's transport calls for every answer: the binary's
        // definition wins over the shared library's (its name made by the preprocessor, as no spelling check sees).
        .target(
            name: "InterposingHandler",
            dependencies: [.product(name: "GatewayHandlerAPI", package: "storegate"), "CInterpose"]),
        .target(name: "CInterpose"),
        // Takes the gateway's application under another module name (moduleAliases), to run its command line.
        .target(
            name: "AliasedAppHandler",
            dependencies: [
                .product(name: "GatewayHandlerAPI", package: "storegate"),
                .product(name: "StoreGateApp", package: "storegate", moduleAliases: ["StoreGateApp": "Harmless"]),
            ]),
    ]
)
