import Crypto
import Foundation

/// A private folder with a catalog and content files, readable by nginx's unprivileged workers.
enum SampleContent {
    static let issueId = "com.example.issue1"
    static let issuePath = "issues/1.bin"
    static let monthlyId = "com.example.monthly"
    static let coinsId = "com.example.coins"
    /// The app's Apple ID the test gateways and the stand-in's Production notifications share.
    static let appAppleId = 1234
    /// What Google Play sells the coins as (the catalog's `store_ids`).
    static let googleCoinsId = "coins_android"
    static let bundleId = "com.example.magazine"
    /// The Android app's package name, for Google Play purchases.
    static let googlePackage = "com.example.magazine.android"

    /// Deterministic bytes for the sample issue, so tests know its digest independently of the gateway.
    static let issueBytes: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<40_000).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }()

    static var issueSHA256: String { sha256(issueBytes) }

    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    static let catalog = """
        products:
          - id: \(issueId)
            type: non-consumable
            title: Issue 1
            description: The first issue
            content: \(issuePath)
            content_type: application/octet-stream
          - id: \(monthlyId)
            type: auto-renewable
            title: Monthly
            description: Every issue
          - id: \(coinsId)
            type: consumable
            title: Coins
            description: A pile of coins
            store_ids: {google-play: \(googleCoinsId)}
        """

    /// A sample folder with `NAME` written as a gateway config for `setup`, without `server.listen`.
    static func makeFolder(config name: String, _ setup: GatewaySetup = GatewaySetup()) throws -> (URL, URL) {
        let folder = try makeFolder()
        let file = folder.appendingPathComponent(name)
        try Deployment.config(setup, listenLine: "").write(to: file, atomically: true, encoding: .utf8)
        return (folder, file)
    }

    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storegate-e2e-\(UUID().uuidString.prefix(8))")
        let files = FileManager.default
        try files.createDirectory(
            at: folder.appendingPathComponent("content/issues"), withIntermediateDirectories: true)
        try Data(issueBytes).write(to: folder.appendingPathComponent("content/\(issuePath)"))
        try catalog.write(to: folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
        for path in [folder, folder.appendingPathComponent("content"), folder.appendingPathComponent("content/issues")]
        {
            try files.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path.path)
        }
        return folder
    }
}
