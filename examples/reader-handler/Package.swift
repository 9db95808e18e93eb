// swift-tools-version: 6.2
import PackageDescription

// A handler module from outside storegate's repository: one library product, named like its module and its main
// type, that depends on storegate's GatewayHandlerAPI product alone. storegate-build builds it into a gateway:
//   swift run storegate-build --with examples/reader-handler --output dist
let package = Package(
    name: "reader-handler",
    platforms: [.macOS(.v15)],
    products: [.library(name: "ReaderHandler", targets: ["ReaderHandler"])],
    dependencies: [
        // A package of your own names storegate by its git URL and a version, under the same name:
        //   .package(url: "https://git.example.com/you/storegate.git", from: "0.1.0")
        // This one lives in storegate's repository and builds against the checkout it is in.
        .package(name: "storegate", path: "../..")
    ],
    targets: [
        .target(name: "ReaderHandler", dependencies: [.product(name: "GatewayHandlerAPI", package: "storegate")]),
        .testTarget(name: "ReaderHandlerTests", dependencies: ["ReaderHandler"]),
    ]
)
