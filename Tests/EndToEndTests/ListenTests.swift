import Foundation
import Testing

extension EndToEnd {
    @Suite struct Listen {
        @Test func unixSocketIsPrivateToTheWebServersGroup() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            let attributes = try FileManager.default.attributesOfItem(atPath: deployment.socketPath)
            #expect((attributes[.posixPermissions] as? Int) == 0o660)
            if Binaries.isRoot { #expect(attributes[.groupOwnerAccountName] as? String == "nogroup") }
        }

        @Test(arguments: ["127.0.0.1", "::1"])
        func tcp(host: String) throws {
            let deployment = try Deployment(GatewaySetup(listen: .tcp(host: host)))
            defer { deployment.stop() }
            #expect(try deployment.request("/v1/catalog").status == 200)
        }

        @Test func servesTheSocketInheritedFromSpawnFcgi() throws {
            let deployment = try Deployment(GatewaySetup(listen: .spawnFcgi))
            defer { deployment.stop() }
            #expect(try deployment.request("/v1/catalog").status == 200)
            deployment.gateway.signal(SIGTERM)
            #expect(deployment.gateway.waitForExit(within: .seconds(5)) == 0)
        }

        @Test func withoutListenAndWithoutASocketOnFd0ItRefusesToStart() throws {
            let (folder, file) = try SampleContent.makeFolder(config: "storegate.yaml")
            defer { try? FileManager.default.removeItem(at: folder) }
            let process = try ManagedProcess(
                Binaries.storegate.path,
                ["serve", "--config", file.path],
                logFile: folder.appendingPathComponent("serve.log")
            )
            #expect(process.waitForExit(within: .seconds(10)) == 1)
            #expect(process.log.contains("fd 0 is not a listening socket"))
        }

        @Test func aLiveSocketIsNeverTakenOver() throws {
            let deployment = try Deployment()
            defer { deployment.stop() }
            let second = try ManagedProcess(
                Binaries.storegate.path,
                ["serve", "--config", deployment.configFile.path],
                logFile: deployment.folder.appendingPathComponent("second.log")
            )
            #expect(second.waitForExit(within: .seconds(10)) == 1)
            #expect(second.log.contains("another server is already listening"))
            #expect(try deployment.request("/v1/catalog").status == 200)
        }
    }
}
