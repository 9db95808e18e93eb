import Foundation
import Testing

extension EndToEnd {
    @Suite struct WorkerPool {
        private let routes = [("/v1/slow", "slow"), ("/v1/catalog", "catalog"), ("/v1/status", "status")]

        @Test func slowHandlersDoNotBlockFastOnesBelowTheWorkerCount() throws {
            let deployment = try Deployment(GatewaySetup(binary: Binaries.testbed, routes: routes))
            defer { deployment.stop() }
            let slowClients = Thread {
                _ = concurrently(6) { _ in try? deployment.request("/v1/slow?ms=2000") }
            }
            slowClients.start()
            #expect(ManagedProcess.poll(for: .seconds(5)) { Self.busyWorkers(deployment) >= 7 })
            for _ in 0..<20 {
                let started = ContinuousClock.now
                #expect(try deployment.request("/v1/catalog").status == 200)
                #expect(started.duration(to: .now) < .milliseconds(500))
            }
            #expect(ManagedProcess.poll(for: .seconds(10)) { slowClients.isFinished })
        }

        @Test func saturationIsLoggedAndRequestsQueueRatherThanFail() throws {
            // Without kept connections, so each request holds a worker only while it runs.
            let deployment = try Deployment(
                GatewaySetup(binary: Binaries.testbed, routes: routes, server: ["workers": "3"], keepAlive: false)
            )
            defer { deployment.stop() }
            let slowClients = Thread {
                _ = concurrently(3) { _ in try? deployment.request("/v1/slow?ms=1500") }
            }
            slowClients.start()
            #expect(ManagedProcess.poll(for: .seconds(5)) { deployment.gateway.log.contains("all workers are busy") })
            let started = ContinuousClock.now
            let queued = try deployment.request("/v1/catalog")
            #expect(queued.status == 200)
            #expect(started.duration(to: .now) > .milliseconds(500))  // waited for a worker
            #expect(ManagedProcess.poll(for: .seconds(10)) { slowClients.isFinished })
        }

        @Test func aRequestPastItsTimeLimitGets504AndTheGatewayGoesOn() throws {
            let deployment = try Deployment(
                GatewaySetup(binary: Binaries.testbed, routes: routes, server: ["request_timeout_ms": "400"])
            )
            defer { deployment.stop() }
            let started = ContinuousClock.now
            let response = try deployment.request("/v1/slow?ms=2500", headers: [("X-Request-Id", "slow-1")])
            let waited = started.duration(to: .now)
            #expect(response.status == 504)
            #expect(response.errorCode == "timeout")
            #expect(response.header("X-Request-Id") == "slow-1")
            #expect(waited >= .milliseconds(400) && waited < .milliseconds(1500))
            #expect(try deployment.request("/v1/catalog").status == 200)
            #expect(deployment.gateway.log.contains("passed its time limit"))
            // The worker frees itself once the handler returns; the pool is whole again.
            #expect(ManagedProcess.poll(for: .seconds(5)) { Self.busyWorkers(deployment) == 1 })
        }

        /// Two connections that reach a busy gateway together are both served, even when the first one's client
        /// stalls after one byte and holds the worker that takes it: the other still gets a worker.
        @Test func aConnectionThatArrivedWithAStalledOneIsServed() throws {
            let deployment = try Deployment(
                GatewaySetup(binary: Binaries.testbed, routes: routes, server: ["workers": "2"], keepAlive: false)
            )
            defer { deployment.stop() }
            let slowClients = Thread {
                _ = concurrently(2) { _ in try? deployment.request("/v1/slow?ms=3000") }
            }
            slowClients.start()
            #expect(ManagedProcess.poll(for: .seconds(5)) { deployment.gateway.log.contains("all workers are busy") })
            let stalled = try FastCGIConnection(socketPath: deployment.socketPath)
            stalled.send([1])  // a record header's first byte, and nothing more
            #expect(try deployment.request("/v1/catalog", timeout: .seconds(20)).status == 200)
            withExtendedLifetime(stalled) {}
            #expect(ManagedProcess.poll(for: .seconds(10)) { slowClients.isFinished })
        }

        /// Idle workers take new connections last in, first out (epoll's order): requests one at a time are served
        /// by the same few workers, where Linux's accept would hand them to every worker in turn, each then keeping
        /// its allocator pages, stack and read connection's cache (docs/OPERATIONS.md, Memory).
        @Test func requestsOneAtATimeWakeTheSameFewWorkersNotEveryWorkerInTurn() throws {
            let deployment = try Deployment(
                GatewaySetup(binary: Binaries.testbed, routes: routes, server: ["workers": "32"], keepAlive: false)
            )
            defer { deployment.stop() }
            #expect(try deployment.request("/v1/catalog").status == 200)
            let before = Self.wakeUps(of: deployment.gateway.pid)
            for _ in 0..<160 { #expect(try deployment.request("/v1/catalog").status == 200) }
            let after = Self.wakeUps(of: deployment.gateway.pid)
            // Each worker that served one of them woke for it; the watchdog and the log writer wake on their own.
            let woken = after.filter { thread, count in count - (before[thread] ?? 0) >= 2 }
            #expect(after.count >= 32)
            #expect(woken.count <= 8, "\(woken.count) of \(after.count) threads woke during 160 requests")
        }

        /// Each thread of process `pid` and how often it has blocked and woken (voluntary context switches).
        static func wakeUps(of pid: Int32) -> [String: Int] {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
            var counts: [String: Int] = [:]
            for task in tasks {
                guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/status", encoding: .utf8),
                    let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }),
                    let count = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
                else { continue }
                counts[task] = count
            }
            return counts
        }

        static func busyWorkers(_ deployment: Deployment) -> Int {
            let status = try? deployment.request("/v1/status")
            return (status?.json["workers"] as? [String: Any])?["busy"] as? Int ?? -1
        }
    }
}
