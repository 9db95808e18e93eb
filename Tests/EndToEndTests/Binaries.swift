import Foundation

/// Paths of the programs the tests run: the built gateways, the checkout's deploy/ folder, nginx.
enum Binaries {
    /// The build folder holding this test bundle and the executables it depends on.
    static let buildFolder: URL = {
        if let folder = ProcessInfo.processInfo.environment["STOREGATE_BIN_DIR"] {
            return URL(fileURLWithPath: folder)
        }
        var url = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.isExecutableFile(atPath: url.appendingPathComponent("storegate").path) {
                return url
            }
        }
        return checkout.appendingPathComponent(".build/debug")
    }()

    static var storegate: URL { buildFolder.appendingPathComponent("storegate") }
    static var testbed: URL { buildFolder.appendingPathComponent("storegate-testbed") }
    static var appStoreSim: URL { buildFolder.appendingPathComponent("storegate-appstore-sim") }

    /// The top of the checkout, found from this file's path.
    static let checkout = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static var deploy: URL { checkout.appendingPathComponent("deploy") }
    static let nginx = "/usr/sbin/nginx"
    static var isRoot: Bool { geteuid() == 0 }
}
