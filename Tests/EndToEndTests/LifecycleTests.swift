import Foundation
import Testing

extension EndToEnd {
    @Suite struct Lifecycle {
        @Test func sighupReloadsTheCatalogWithoutDroppingRequests() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            let before = try #require(try deployment.request("/v1/catalog").header("ETag"))
            let catalog = deployment.folder.appendingPathComponent("catalog.yaml")
            try (SampleContent.catalog + "\n  - { id: com.example.extra, type: consumable, title: Extra }\n")
                .write(to: catalog, atomically: true, encoding: .utf8)

            // Requests keep flowing on eight threads while the gateway reloads five times.
            let statuses = LockedBox([Int]())
            let stopLoad = LockedBox(false)
            let load = Thread {
                _ = concurrently(8) { _ in
                    while !stopLoad.value {
                        let status = (try? deployment.request("/v1/catalog"))?.status ?? -1
                        statuses.mutate { $0.append(status) }
                    }
                }
            }
            load.start()
            // Each reload once more requests have been answered since the last one, and after the previous
            // reload is done; the load runs on until more requests are answered on the last catalog.
            let reloads = { deployment.gateway.log.components(separatedBy: "msg=reloaded").count - 1 }
            for reload in 1...6 {
                let answered = statuses.value.count
                #expect(ManagedProcess.poll(for: .seconds(10)) { statuses.value.count >= answered + 20 })
                if reload == 6 { break }
                deployment.gateway.signal(SIGHUP)
                #expect(ManagedProcess.poll(for: .seconds(10)) { reloads() == reload })
            }
            stopLoad.mutate { $0 = true }
            #expect(ManagedProcess.poll(for: .seconds(10)) { load.isFinished })

            #expect(statuses.value.allSatisfy { $0 == 200 }, "statuses seen: \(Set(statuses.value))")
            let after = try deployment.request("/v1/catalog")
            #expect(after.header("ETag") != before)
            #expect((after.json["products"] as? [Any])?.count == 4)
        }

        @Test func brokenConfigIsRefusedAndTheOldOneKeepsServing() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            let before = try deployment.request("/v1/catalog")
            try "products:\n  - { id: bad/id, type: gift }\n"
                .write(to: deployment.folder.appendingPathComponent("catalog.yaml"), atomically: true, encoding: .utf8)
            deployment.gateway.signal(SIGHUP)
            #expect(ManagedProcess.poll(for: .seconds(5)) { deployment.gateway.log.contains("reload refused") })
            let log = deployment.gateway.log
            #expect(log.contains("products[0].id"))
            #expect(log.contains("products[0].type"))
            let after = try deployment.request("/v1/catalog")
            #expect(after.status == 200)
            #expect(after.body == before.body)
        }

        @Test func sigtermFinishesTheRequestInFlightThenExitsZero() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed,
                    routes: [("/v1/slow", "slow"), ("/v1/catalog", "catalog"), ("/v1/status", "status")])
            )
            defer { deployment.stop() }
            let slow = LockedBox<HTTPResponse?>(nil)
            let client = Thread { slow.mutate { $0 = try? deployment.request("/v1/slow?ms=1500") } }
            client.start()
            // Once the slow request holds a worker (the status request is the other busy one).
            let busy = { ((try? deployment.request("/v1/status"))?.json["workers"] as? [String: Any])?["busy"] as? Int }
            #expect(ManagedProcess.poll(for: .seconds(10)) { busy() == 2 })
            deployment.gateway.signal(SIGTERM)
            let exit = deployment.gateway.waitForExit(within: .seconds(10))
            #expect(exit == 0)
            #expect(ManagedProcess.poll(for: .seconds(5)) { client.isFinished })
            #expect(slow.value?.status == 200)
            #expect(slow.value?.text == "{\"slept_ms\":1500}")
            #expect(!FileManager.default.fileExists(atPath: deployment.socketPath))
            #expect(try deployment.request("/v1/catalog").status == 502)
        }

        /// A client that connects and says nothing as the gateway stops does not hold the stop up. Told that
        /// the server was shutting down, libfcgi took the descriptor of the silent connection it had just closed
        /// for a new one, and closed it again and again, spinning (and closing whatever reused the number) until
        /// the grace period ended (a reviewer's find).
        @Test func aSilentClientAtShutdownDoesNotHoldItUp() throws {
            let deployment = try Deployment(
                GatewaySetup(
                    binary: Binaries.testbed, routes: [("/v1/catalog", "catalog")],
                    server: ["shutdown_grace_s": "60"])
            )
            defer { deployment.stop() }
            let descriptors = {
                (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(deployment.gateway.pid)/fd"))?.count ?? 0
            }
            let before = descriptors()
            let silent = try FastCGIConnection(socketPath: deployment.socketPath)
            // Accepted: a worker waits (up to 2 s) for its first byte.
            #expect(ManagedProcess.poll(for: .seconds(5)) { descriptors() > before })
            deployment.gateway.signal(SIGTERM)
            #expect(deployment.gateway.waitForExit(within: .seconds(20)) == 0)
            #expect(!deployment.gateway.log.contains("still running"), "\(deployment.gateway.log)")
            withExtendedLifetime(silent) {}
        }

        @Test func idleKeptConnectionsDoNotDelayShutdown() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            for _ in 0..<20 { _ = try deployment.request("/v1/catalog") }  // leaves kept nginx connections
            let started = ContinuousClock.now
            deployment.gateway.signal(SIGTERM)
            #expect(deployment.gateway.waitForExit(within: .seconds(5)) == 0)
            #expect(started.duration(to: .now) < .seconds(2))
        }
    }
}
