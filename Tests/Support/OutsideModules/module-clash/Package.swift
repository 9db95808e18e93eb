// swift-tools-version: 6.2
import PackageDescription

// A handler module named like a built-in one (CatalogHandler): storegate-build refuses it before building, naming
// both (Tests/EndToEndTests/OutsideModuleTests.swift).
let package = Package(
    name: "module-clash",
    platforms: [.macOS(.v15)],
    products: [.library(name: "CatalogHandler", targets: ["CatalogHandler"])],
    dependencies: [.package(name: "storegate", path: "../../../..")],
    targets: [
        .target(name: "CatalogHandler", dependencies: [.product(name: "GatewayHandlerAPI", package: "storegate")])
    ]
)
