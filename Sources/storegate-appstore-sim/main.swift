import AppStoreSim
import Foundation

/// `storegate-appstore-sim [--listen 127.0.0.1:9090] [--fixtures FILE] [--shared-secret S] [--accept-any PRODUCT [--delay-ms N]]`
///
/// The App Store stand-in for tests and local demos. It binds loopback addresses only, and is used only
/// when a config points `apple.production_url`/`sandbox_url` at it.
let usage = """
    usage: storegate-appstore-sim [--listen 127.0.0.1:PORT] [--fixtures FILE] [--shared-secret S]
                                  [--accept-any PRODUCT_ID [--delay-ms N]]
    """

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("storegate-appstore-sim: \(message)\n".utf8))
    exit(2)
}

var options: [String: String] = [:]
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard ["--listen", "--fixtures", "--shared-secret", "--accept-any", "--delay-ms"].contains(flag),
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
    let receipts = try options["--fixtures"].map(SimFixtures.load) ?? []
    let simulator = AppStoreSimulator(
        receipts: receipts,
        sharedSecret: options["--shared-secret"] ?? ProcessInfo.processInfo.environment["APPSTORE_SIM_SHARED_SECRET"],
        acceptAnyProduct: options["--accept-any"],
        acceptAnyDelayMs: options["--delay-ms"].flatMap { Int($0) } ?? 0
    )
    let server = try SimHTTPServer(simulator: simulator, host: host, port: port)
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
