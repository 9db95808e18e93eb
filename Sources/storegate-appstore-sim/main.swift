import AppStoreSim
import Foundation

/// `storegate-appstore-sim [--listen 127.0.0.1:9090] [--fixtures FILE] [--shared-secret S] [--accept-any PRODUCT [--delay-ms N]]
///  [--api-public-key PEM --api-issuer ID --api-key-id ID --api-bundle-id ID --signing-key PEM --signing-chain A,B,C [--page-size N]
///   [--api-app-apple-id N]]
///  [--google-public-key PEM --google-client-email EMAIL [--google-token-lifetime S]]`
///
/// The App Store stand-in for tests and local demos. It binds loopback addresses only, and is used only
/// when a config points `apple.production_url`/`sandbox_url` (or `apple.server_api`'s URLs) at it. With
/// `--api-public-key` it also speaks the App Store Server API, checking tokens against that key and signing
/// answers with `--signing-key` and its `--signing-chain` (leaf, intermediate, root PEM files), its Production notifications naming
/// the app `--api-app-apple-id`. `--accept-any`
/// makes any unknown receipt, and any unknown production transaction id, a fresh purchase (benchmarks). With
/// `--google-public-key` it also speaks Google's token endpoint and the Play Developer API's purchases methods,
/// taking the logins of the service account `--google-client-email` whose public key that is (and `--accept-any`
/// makes any unknown one-time purchase token a fresh purchase too); its access tokens last
/// `--google-token-lifetime` seconds (Google's 3599 by default; shorter than the gateway's renewal margin, every
/// call of the gateway logs in first).
let usage = """
    usage: storegate-appstore-sim [--listen 127.0.0.1:PORT] [--fixtures FILE] [--shared-secret S]
                                  [--accept-any PRODUCT_ID [--delay-ms N]]
                                  [--api-public-key PEM --api-issuer ID --api-key-id ID --api-bundle-id ID
                                   --signing-key PEM --signing-chain LEAF,INTERMEDIATE,ROOT [--page-size N]
                                   [--api-app-apple-id N]]
                                  [--google-public-key PEM --google-client-email EMAIL
                                   [--google-token-lifetime SECONDS]]
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("storegate-appstore-sim: \(message)\n".utf8))
    exit(2)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    let known = [
        "--listen", "--fixtures", "--shared-secret", "--accept-any", "--delay-ms", "--api-public-key", "--api-issuer",
        "--api-key-id", "--api-bundle-id", "--signing-key", "--signing-chain", "--page-size", "--google-public-key",
        "--google-client-email", "--google-token-lifetime", "--api-app-apple-id",
    ]
    guard known.contains(flag),
        let value = arguments.popFirst()
    else {
        fail(flag == "--help" ? usage : "unexpected \"\(flag)\"\n\(usage)")
    }
    options[flag] = value
}

let listen = options["--listen"] ?? "127.0.0.1:9090"
guard let colon = listen.lastIndex(of: ":"), let port = Int(listen[listen.index(after: colon)...]) else {
    fail("--listen must be HOST:PORT")
}
let host = String(listen[..<colon]).trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
guard ["127.0.0.1", "::1", "localhost"].contains(host) else { fail("the stand-in listens on loopback addresses only") }

var blocked = sigset_t()
sigemptyset(&blocked)
sigaddset(&blocked, SIGTERM)
sigaddset(&blocked, SIGINT)
pthread_sigmask(SIG_BLOCK, &blocked, nil)

do {
    let fixtures = try options["--fixtures"].map(SimFixtures.load)
    let receipts = fixtures?.receipts ?? []
    let simulator = AppStoreSimulator(
        receipts: receipts,
        sharedSecret: options["--shared-secret"] ?? ProcessInfo.processInfo.environment["APPSTORE_SIM_SHARED_SECRET"],
        acceptAnyProduct: options["--accept-any"],
        acceptAnyDelayMs: options["--delay-ms"].flatMap { Int($0) } ?? 0
    )
    let serverAPI = try makeServerAPI(options, transactions: fixtures?.transactions ?? [])
    let googlePlay = try makeGooglePlay(options)
    googlePlay?.add(fixtures?.googlePurchases ?? [])
    let server = try SimHTTPServer(
        simulator: simulator, serverAPI: serverAPI, googlePlay: googlePlay, host: host, port: port)
    let banner = "storegate-appstore-sim listening on http://\(host):\(server.port) with \(receipts.count) receipts\n"
    FileHandle.standardOutput.write(Data(banner.utf8))
    // Wait for SIGTERM or SIGINT on this thread (blocked everywhere else), then leave at once.
    var stopSignals = sigset_t()
    sigemptyset(&stopSignals)
    sigaddset(&stopSignals, SIGTERM)
    sigaddset(&stopSignals, SIGINT)
    var received: Int32 = 0
    sigwait(&stopSignals, &received)
    server.close()
    exit(0)
} catch {
    fail("\(error)")
}

/// The Server API stand-in the options describe, or nil without `--api-public-key`.
func makeServerAPI(_ options: [String: String], transactions: [SimAPITransaction]) throws -> SimServerAPI? {
    guard let publicKey = options["--api-public-key"] else { return nil }
    func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    func required(_ flag: String) -> String {
        guard let value = options[flag] else { fail("--api-public-key needs \(flag)") }
        return value
    }
    let check = try SimJWTCheck(
        issuerId: required("--api-issuer"), keyId: required("--api-key-id"), bundleId: required("--api-bundle-id"),
        publicKeyPEM: try text(publicKey))
    let signer = try SimSigner(
        keyPEM: try text(required("--signing-key")),
        certificatePEMs: try required("--signing-chain").split(separator: ",").map { try text(String($0)) })
    return SimServerAPI(
        check: check, signer: signer, transactions: transactions,
        pageSize: options["--page-size"].flatMap { Int($0) } ?? 20, acceptAnyProduct: options["--accept-any"],
        appAppleId: options["--api-app-apple-id"].flatMap { Int64($0) })
}

/// Google's stand-in the options describe, or nil without `--google-public-key`.
func makeGooglePlay(_ options: [String: String]) throws -> SimGooglePlay? {
    guard let publicKey = options["--google-public-key"] else { return nil }
    guard let email = options["--google-client-email"] else { fail("--google-public-key needs --google-client-email") }
    return try SimGooglePlay(
        login: try SimGoogleLoginCheck(
            clientEmail: email, publicKeyPEM: try String(contentsOfFile: publicKey, encoding: .utf8)),
        tokenLifetime: options["--google-token-lifetime"].flatMap { Int($0) } ?? 3599,
        acceptAnyProduct: options["--accept-any"])
}
