import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What a test deploys: which gateway binary, which routes and settings, how nginx reaches it.
struct GatewaySetup {
    enum Listen {
        case unixSocket
        /// TCP on a free port of `host` (`127.0.0.1` or `::1`).
        case tcp(host: String)
        /// spawn-fcgi creates the socket and hands it to storegate on fd 0.
        case spawnFcgi
    }

    var binary = Binaries.storegate
    var routes = [("/v1/catalog", "catalog"), ("/v1/status", "status")]
    /// The handlers that answer with content, whose routes nginx gives a location that lets X-Accel-Redirect
    /// through, as the deploy/ site's `/v1/download/` (every other location ignores it).
    static let contentHandlers: Set = [
        "download", "fixture-content", "stashing-content", "upgrade", "caching", "entitlement-echo", "remote-probe",
    ]
    /// More keys of a route's entry, by path, in YAML flow syntax (`rate_per_s: 2`).
    var routeOptions: [String: String] = [:]
    /// Extra `server:` keys, as YAML values.
    var server: [String: String] = [:]
    var listen = Listen.unixSocket
    /// How many storegate processes run on this config, each on its own unix socket, all in nginx's upstream.
    var gateways = 1
    /// Whether nginx keeps FastCGI connections open, as the deploy/ site does.
    var keepAlive = true
    var environment: [String: String] = [:]
    /// Where verifyReceipt calls go; with one, the config gets an `apple` section pointing at it.
    var appStore: AppStoreStandIn?
    /// Extra `apple:` keys, as YAML values.
    var apple: [String: String] = [:]
    /// YAML appended to the config as is (more sections).
    var extra = ""
    /// `content.delivery`, when set.
    var delivery: String?
    /// The largest file a gateway may write, in bytes (`prlimit --fsize`): a full disk for its ledger.
    var fileSizeLimit: Int?
    /// A catalog in place of the sample's; with one naming only storage objects, the gateway has no content
    /// folder at all.
    var catalog: String?
    /// When set, the deploy/ site's app-account lines are enabled, and a login service in the same nginx
    /// answers for these sessions (`X-App-Session` → account id); others get 401, none is anonymous.
    var nginxAccounts: [String: String]?
}

/// A real storegate (or the test gateway) behind a real nginx rendered from deploy/nginx/storegate.conf,
/// in a private folder, on free loopback ports.
final class Deployment: @unchecked Sendable {
    let folder: URL
    let port: Int
    /// What the deployment runs; a change applies to gateways started after it.
    var setup: GatewaySetup
    private(set) var gateways: [ManagedProcess] = []
    private(set) var nginx: ManagedProcess?
    var configFile: URL { folder.appendingPathComponent("storegate.yaml") }
    var socketPath: String { socketPath(of: 0) }
    /// The first (often the only) gateway.
    var gateway: ManagedProcess { gateways[0] }

    /// The socket of gateway `index`: the config's for the first, an environment override for the others.
    func socketPath(of index: Int) -> String {
        folder.appendingPathComponent(index == 0 ? "storegate.sock" : "storegate-\(index + 1).sock").path
    }

    init(_ setup: GatewaySetup = GatewaySetup()) throws {
        self.setup = setup
        folder = try SampleContent.makeFolder()
        if let catalog = setup.catalog {
            try catalog.write(to: folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
            if !catalog.contains("content:") {
                try FileManager.default.removeItem(at: folder.appendingPathComponent("content"))
            }
        }
        port = try FreePort.next()
        var upstreams = ["unix:\(folder.appendingPathComponent("storegate.sock").path)"]
        var listenLine = "  listen: \(folder.appendingPathComponent("storegate.sock").path)\n"
        switch setup.listen {
        case .unixSocket:
            upstreams += (1..<max(setup.gateways, 1)).map { "unix:\(socketPath(of: $0))" }
        case .tcp(let host):
            let gatewayPort = try FreePort.next()
            upstreams = [host.contains(":") ? "[\(host)]:\(gatewayPort)" : "\(host):\(gatewayPort)"]
            listenLine = "  listen: \"\(upstreams[0])\"\n"
        case .spawnFcgi:
            listenLine = ""
        }
        try Self.config(setup, listenLine: listenLine).write(to: configFile, atomically: true, encoding: .utf8)
        for index in upstreams.indices { gateways.append(try launchGateway(index)) }
        if setup.gateways > 1 {
            // nginx marks a refusing server down for fail_timeout; with several it would wait that long.
            _ = ManagedProcess.poll(for: .seconds(15)) {
                upstreams.indices.allSatisfy { FileManager.default.fileExists(atPath: socketPath(of: $0)) }
            }
        }
        let contentPaths = setup.routes.filter { GatewaySetup.contentHandlers.contains($0.1) }.map(\.0)
        nginx = try Self.launchNginx(
            folder: folder, port: port, upstreams: upstreams, keepAlive: setup.keepAlive,
            accounts: setup.nginxAccounts, contentPaths: contentPaths)
        let up = ManagedProcess.poll(for: .seconds(15)) {
            (try? HTTPClient.request(port: port, path: "/v1/", timeout: .seconds(2)))?.header("X-Request-Id") != nil
        }
        guard up else {
            let logs = gateways.map(\.log).joined() + (nginx?.log ?? "")
            stop()
            throw HTTPClient.Failure(description: "the deployment did not come up:\n\(logs)")
        }
    }

    /// One request through nginx.
    func request(
        _ path: String,
        method: String = "GET",
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        timeout: Duration = .seconds(10)
    ) throws -> HTTPResponse {
        try HTTPClient.request(port: port, method: method, path: path, headers: headers, body: body, timeout: timeout)
    }

    /// Starts a new gateway process on the same config (after the old one was killed).
    func restartGateway(_ index: Int = 0) throws {
        gateways[index].stop()
        gateways[index] = try launchGateway(index)
        let port = port
        guard
            ManagedProcess.poll(
                for: .seconds(15), { (try? HTTPClient.request(port: port, path: "/v1/catalog"))?.status == 200 })
        else { throw HTTPClient.Failure(description: "the gateway did not come back:\n\(gateways[index].log)") }
    }

    /// How many requests each gateway answered, by socket, from nginx's access log (the last server tried).
    func requestsByGateway() -> [String: Int] {
        let log = (try? String(contentsOf: folder.appendingPathComponent("nginx/access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").reduce(into: [:]) { counts, line in
            guard let server = line.components(separatedBy: ", ").last, server.hasPrefix("unix:") else { return }
            counts[String(server.dropFirst(5)), default: 0] += 1
        }
    }

    func stop() {
        gateways.forEach { $0.stop() }
        nginx?.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    static func config(_ setup: GatewaySetup, listenLine: String) -> String {
        var settings = ["workers": "16"]
        if Binaries.isRoot, case .unixSocket = setup.listen { settings["socket_group"] = "nogroup" }
        settings.merge(setup.server) { _, chosen in chosen }
        let server = listenLine + settings.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)\n" }.joined()
        let routes = setup.routes.map { path, handler in
            "  - { path: \(path), handler: \(handler)\(setup.routeOptions[path].map { ", " + $0 } ?? "") }"
        }.joined(separator: "\n")
        var config = "server:\n\(server)routes:\n\(routes)\ncatalog:\n  file: catalog.yaml\ncontent:\n  root: content\n"
        if let delivery = setup.delivery { config += "  delivery: \(delivery)\n" }
        if let appStore = setup.appStore {
            var apple = [
                "bundle_ids": "[\(SampleContent.bundleId)]",
                "production_url": appStore.productionURL,
                "sandbox_url": appStore.sandboxURL,
            ]
            apple.merge(setup.apple) { _, chosen in chosen }
            config += "apple:\n" + apple.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)\n" }.joined()
        }
        return config + setup.extra
    }

    private func launchGateway(_ index: Int) throws -> ManagedProcess {
        let log = folder.appendingPathComponent(index == 0 ? "storegate.log" : "storegate-\(index + 1).log")
        let config = configFile
        guard case .spawnFcgi = setup.listen else {
            var environment = setup.environment
            if index > 0 { environment["STOREGATE_SERVER_LISTEN"] = socketPath(of: index) }
            let command = [setup.binary.path, "serve", "--config", config.path]
            guard let limit = setup.fileSizeLimit else {
                return try ManagedProcess(
                    command[0], Array(command.dropFirst()), environment: environment, logFile: log)
            }
            return try ManagedProcess(
                "/usr/bin/prlimit", ["--fsize=\(limit)", "--"] + command, environment: environment, logFile: log)
        }
        var arguments = ["-n", "-s", folder.appendingPathComponent("storegate.sock").path, "-M", "0660"]
        if Binaries.isRoot { arguments += ["-G", "nogroup"] }
        arguments += ["--", setup.binary.path, "serve", "--config", config.path]
        return try ManagedProcess("/usr/bin/spawn-fcgi", arguments, environment: setup.environment, logFile: log)
    }

    private static func launchNginx(
        folder: URL, port: Int, upstreams: [String], keepAlive: Bool, accounts: [String: String]?,
        contentPaths: [String]
    ) throws -> ManagedProcess {
        let prefix = folder.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(
            at: prefix.appendingPathComponent("tmp"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: "/etc/nginx/fastcgi_params", toPath: prefix.appendingPathComponent("fastcgi_params").path)
        var site = try String(
            contentsOf: Binaries.deploy.appendingPathComponent("nginx/storegate.conf"), encoding: .utf8
        )
        .replacingOccurrences(
            of: "server unix:/run/storegate/storegate.sock;",
            with: upstreams.map { "server \($0);" }.joined(separator: "\n    ")
        )
        .replacingOccurrences(
            of: "/var/lib/storegate/content/", with: folder.appendingPathComponent("content").path + "/"
        )
        .replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
        if !keepAlive {
            site = site.components(separatedBy: "\n")
                .filter { !$0.contains("keepalive 16;") && !$0.contains("fastcgi_keep_conn on;") }
                .joined(separator: "\n")
        }
        site = Self.withContentLocations(site, for: contentPaths)
        if let accounts { site = try Self.enablingAccounts(site, sessions: accounts) }
        let siteFile = prefix.appendingPathComponent("site.conf")
        try site.write(to: siteFile, atomically: true, encoding: .utf8)
        let main = try String(
            contentsOf: Binaries.deploy.appendingPathComponent("nginx/standalone.conf.in"), encoding: .utf8
        )
        .replacingOccurrences(of: "@PREFIX@", with: prefix.path)
        .replacingOccurrences(of: "@USER@", with: Binaries.isRoot ? "user nobody nogroup;" : "")
        .replacingOccurrences(of: "@SITE@", with: siteFile.path)
        .replacingOccurrences(
            of: "access_log off;",
            with: "log_format upstreams '$upstream_addr';\n    access_log \(prefix.path)/access.log upstreams;")
        let mainFile = prefix.appendingPathComponent("nginx.conf")
        try main.write(to: mainFile, atomically: true, encoding: .utf8)
        return try ManagedProcess(
            Binaries.nginx,
            ["-p", prefix.path, "-c", mainFile.path, "-g", "daemon off;"],
            logFile: prefix.appendingPathComponent("stderr.log")
        )
    }
}

extension Deployment {
    /// The deploy/ site with a location like its `/v1/download/` for each content route at another path, as an
    /// operator adds one for a content route of their own: only there does nginx follow X-Accel-Redirect.
    static func withContentLocations(_ site: String, for paths: [String]) -> String {
        guard let start = site.range(of: "    location /v1/download/ {"),
            let end = site.range(of: "\n    }\n", range: start.upperBound..<site.endIndex)
        else { return site }
        let block = String(site[start.lowerBound..<end.upperBound])
        let added = paths.filter { $0 != "/v1/download" }.map {
            block.replacingOccurrences(of: "location /v1/download/ {", with: "location ^~ \($0)/ {")
        }
        return site.replacingCharacters(in: start.lowerBound..<start.lowerBound, with: added.joined())
    }

    /// The deploy/ site with its app-account lines uncommented, asking a login service added on another port
    /// that knows `sessions`.
    static func enablingAccounts(_ site: String, sessions: [String: String]) throws -> String {
        let loginPort = try FreePort.next()
        let directives =
            "auth_request|fastcgi_param STOREGATE_ACCOUNT|location = /_storegate_account|internal;|proxy_|\\}"
        let enabled = site.replacingOccurrences(
            of: "\n( *)#( *)(\(directives))", with: "\n$1$2$3", options: .regularExpression
        )
        .replacingOccurrences(of: "http://127.0.0.1:9000/session", with: "http://127.0.0.1:\(loginPort)/session")
        let known = sessions.sorted { $0.key < $1.key }.map { "    \"\($0.key)\" \"\($0.value)\";\n" }.joined()
        return enabled + """

            map $http_x_app_session $test_session_account {
                default "";
            \(known)}
            server {
                listen 127.0.0.1:\(loginPort);
                location = /session {
                    if ($http_x_app_session = "") { return 204; }
                    if ($test_session_account = "") { return 401; }
                    add_header X-Account-Id $test_session_account always;
                    return 204;
                }
            }

            """
    }
}

/// Free loopback ports, found by binding port 0.
enum FreePort {
    static func next() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard ok else { throw HTTPClient.Failure(description: "no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
