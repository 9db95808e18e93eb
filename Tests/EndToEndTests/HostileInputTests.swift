import Foundation
import Testing

extension EndToEnd {
    /// Malformed requests through nginx and straight to the FastCGI socket (`cgi-fcgi`, bypassing nginx's own
    /// checks): every one gets a 4xx, and the gateway keeps serving.
    @Suite struct HostileInput {
        /// Runs `script` in sh with `cgi-fcgi` bound to the gateway's socket as `$FCGI`, and returns the status
        /// of the CGI answer it prints.
        private func direct(_ script: String, on gateway: VerifyDeployment) throws -> Int? {
            let log = gateway.deployment.folder.appendingPathComponent("cgi-fcgi.out")
            let fcgi = "cgi-fcgi -bind -connect \(gateway.deployment.socketPath)"
            let process = try ManagedProcess(
                "/bin/sh", ["-c", script.replacingOccurrences(of: "$FCGI", with: fcgi)], logFile: log)
            guard process.waitForExit(within: .seconds(20)) != nil else {
                process.stop()
                return nil
            }
            let status = process.log.split(separator: "\r\n").first { $0.hasPrefix("Status: ") }
            return status.flatMap { Int($0.dropFirst(8).prefix(3)) } ?? (process.log.isEmpty ? nil : 200)
        }

        @Test func malformedFastCGIRequestsGet4xxAndTheGatewayStaysUp() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let post = "REQUEST_METHOD=POST REQUEST_URI=/v1/verify CONTENT_TYPE=application/json"
            let cases: [(String, String, Int)] = [
                (
                    "params over 64 KiB",
                    "HTTP_X_BIG=$(head -c 100000 /dev/zero | tr '\\0' a) REQUEST_METHOD=GET REQUEST_URI=/v1/catalog $FCGI </dev/null",
                    400
                ),
                ("no CONTENT_LENGTH", "printf '{\"receipt-data\":\"YQ==\"}' | env \(post) $FCGI", 400),
                ("CONTENT_LENGTH larger than the body", "printf 'short' | env \(post) CONTENT_LENGTH=1000 $FCGI", 400),
                ("CONTENT_LENGTH not a number", "printf '{}' | env \(post) CONTENT_LENGTH=12abc $FCGI", 400),
                (
                    "invalid UTF-8 in the path",
                    "env REQUEST_METHOD=GET REQUEST_URI=\"$(printf '/v1/\\377\\376')\" $FCGI </dev/null", 404
                ),
                (
                    "invalid UTF-8 in JSON",
                    "printf '{\"receipt-data\":\"\\377\\376\"}' | env \(post) CONTENT_LENGTH=21 $FCGI", 400
                ),
                (
                    "JSON nested 200,000 deep",
                    "head -c 200000 /dev/zero | tr '\\0' '[' | env \(post) CONTENT_LENGTH=200000 $FCGI", 400
                ),
                (
                    "a 10 MiB base64 receipt",
                    "(printf '{\"receipt-data\":\"'; head -c 10485760 /dev/zero | tr '\\0' Q; printf '\"}') | env \(post) CONTENT_LENGTH=10485780 $FCGI",
                    413
                ),
                ("an unknown method", "env REQUEST_METHOD=BREW REQUEST_URI=/v1/catalog $FCGI </dev/null", 405),
            ]
            for (name, script, expected) in cases {
                #expect(try direct(script, on: gateway) == expected, "\(name)")
            }
            #expect(gateway.deployment.gateway.process.isRunning)
            #expect(try gateway.deployment.request("/v1/catalog").status == 200)
        }

        /// A body's end-of-stream record that is not in the gateway's read with the body's last byte (nginx
        /// writes it on its own after a body from a temporary file) must leave the kept connection in step for
        /// the next request. Left unread, it was taken for the next request's start: the gateway dropped the
        /// connection, and nginx answered the request it had sent there 502. Here the body ends exactly where
        /// libfcgi's 8 KiB read does, so the record stays in the socket every time.
        @Test func aBodysEndOutsideTheBodysReadLeavesTheKeptConnectionServing() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let connection = try FastCGIConnection(socketPath: gateway.deployment.socketPath)
            // Four digits held for the length, which has four.
            var parameters = ["REQUEST_METHOD": "POST", "REQUEST_URI": "/v1/verify", "CONTENT_LENGTH": "0000"]
            let length = 8192 - FastCGIConnection.bytesBeforeBody(of: parameters)
            parameters["CONTENT_LENGTH"] = "\(length)"
            let body = Array("[1,2".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: length - 4)
            connection.send(FastCGIConnection.request(parameters, body: body))
            let first = try #require(connection.answer())
            #expect(first.hasPrefix("Status: 400"), "\(first)")
            // As nginx does: the next request on the connection only once the answer has ended.
            connection.send(FastCGIConnection.request(["REQUEST_METHOD": "GET", "REQUEST_URI": "/v1/catalog"]))
            let second = try #require(connection.answer(), "the gateway closed the kept connection")
            #expect(second.contains("\"products\""), "\(second)")
        }

        @Test func malformedHTTPRequestsThroughNginxGet4xx() throws {
            let gateway = try VerifyDeployment()
            defer { gateway.stop() }
            let nested = [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
            let invalidUTF8 = Array("{\"receipt-data\":\"".utf8) + [0xFF, 0xFE] + Array("\"}".utf8)
            let huge = Array("{\"receipt-data\":\"".utf8) + [UInt8](repeating: UInt8(ascii: "Q"), count: 10 << 20)
            for (path, body, expected) in [
                ("/v1/verify", nested, 400), ("/v1/verify", invalidUTF8, 400), ("/v1/verify", huge, 413),
                ("/v1/restore-sync", Array("[1,2".utf8), 400),
            ] {
                let answer = try gateway.deployment.request(path, method: "POST", body: body)
                #expect(answer.status == expected, "\(path): \(answer.text.prefix(200))\n\(gateway.logs)")
            }
            for path in ["/v1/download/%FF%FE", "/v1/%C0%AF", "/v1/download/..%2F..%2Fetc%2Fpasswd"] {
                #expect((400..<500).contains(try gateway.deployment.request(path).status), "\(path)")
            }
            #expect(gateway.deployment.gateway.process.isRunning)
            #expect(try gateway.deployment.request("/v1/catalog").status == 200)
        }
    }
}
