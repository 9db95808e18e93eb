// swift-tools-version: 6.2
import PackageDescription

// A handler module whose handler name ("reader") is the example reader's: the built gateway refuses the pair, so
// storegate-build must fail, naming both (Tests/EndToEndTests/OutsideModuleTests.swift).
let package = Package(
    name: "name-clash",
    platforms: [.macOS(.v15)],
    products: [.library(name: "SecondReaderHandler", targets: ["SecondReaderHandler"])],
    dependencies: [.package(name: "storegate", path: "../../../..")],
    targets: [
        .target(name: "SecondReaderHandler", dependencies: [.product(name: "GatewayHandlerAPI", package: "storegate")])
    ]
)
