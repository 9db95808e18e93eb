import Foundation
import Testing

extension EndToEnd {
    /// The `storegate` command line as an operator meets it: help on every command, the version, and exit 2
    /// with the usage on standard error for a command line that cannot run.
    @Suite struct CommandLine {
        struct Outcome {
            let status: Int32
            let output: String
            let errors: String
        }

        /// `binary` run with `arguments`, this process's environment plus `environment`, to its end.
        static func run(
            _ arguments: [String], binary: URL = Binaries.storegate, environment: [String: String] = [:]
        ) throws -> Outcome {
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.filter { $0.key != "GATEWAY_INTERFACE" }
                .merging(environment) { _, chosen in chosen }
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Outcome(
                status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                errors: String(decoding: err, as: UTF8.self))
        }

        @Test(arguments: [
            (["--help"], "USAGE: storegate <subcommand>"), (["help"], "USAGE: storegate <subcommand>"),
            (["serve", "--help"], "USAGE: storegate serve --config <file>"),
            (["check-config", "--help"], "USAGE: storegate check-config --config <file>"),
            (["ledger", "copy", "--help"], "USAGE: storegate ledger copy --from <url> --to <url>"),
            (["help", "ledger"], "USAGE: storegate ledger <subcommand>"),
            (
                ["notifications", "backfill", "--help"],
                "USAGE: storegate notifications backfill --config <file> --since <time> [--until <time>]"
            ),
            (["version", "--help"], "USAGE: storegate version"),
        ])
        func everyCommandExplainsItself(_ arguments: [String], usage: String) throws {
            let outcome = try Self.run(arguments)
            #expect(outcome.status == 0)
            #expect(outcome.output.contains(usage), "\(outcome.output)")
            #expect(outcome.errors.isEmpty)
        }

        @Test func theVersionIsPrintedBothWaysAndTheCommandListsEveryModuleWithWhereItCameFrom() throws {
            let flag = try Self.run(["--version"])
            #expect(flag.status == 0)
            #expect(flag.output == "storegate 0.1.0\n")
            let command = try Self.run(["version"])
            #expect(command.status == 0)
            let lines = command.output.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
            #expect(lines.first == "storegate 0.1.0")
            #expect(lines.dropFirst().first == "handler modules:")
            let modules = [
                "catalog CatalogHandler", "download DownloadHandler", "entitlements EntitlementsHandler",
                "metrics MetricsHandler", "notifications NotificationsHandler", "offers OffersHandler",
                "restore-sync RestoreSyncHandler",
                "status StatusHandler", "support SupportHandler", "verify VerifyHandler",
            ]
            let listed = modules.map { entry in
                let (name, module) = (entry.split(separator: " ")[0], entry.split(separator: " ")[1])
                return "\(name) \(module).\(module) built in"
            }
            #expect(Array(lines.dropFirst(2)) == listed, "\(command.output)")
        }

        @Test(arguments: [
            ([], "Name a command."), (["serve"], "Missing expected argument '--config <file>'"),
            (["check-config", "--config"], "Missing value for '--config <file>'"),
            (["ledger"], "Name a ledger command: copy."),
            (["notifications"], "Name a notifications command: backfill."),
            (["notifications", "backfill", "--config", "x.yaml", "--since", "yesterday"], "--since"),
            (["ledger", "copy", "--from", "sqlite:a.sqlite"], "Missing expected argument '--to <url>'"),
            (["serve", "--config", "a.yaml", "--workers", "2"], "Unknown option '--workers'"),
            (["bogus"], "Unexpected argument 'bogus'"),
        ])
        func unusableCommandLinesExit2WithTheUsageOnStandardError(_ arguments: [String], problem: String) throws {
            let outcome = try Self.run(arguments)
            #expect(outcome.status == 2)
            #expect(outcome.output.isEmpty)
            #expect(outcome.errors.contains(problem), "\(outcome.errors)")
            #expect(outcome.errors.contains("Usage: storegate"))
        }
    }
}
