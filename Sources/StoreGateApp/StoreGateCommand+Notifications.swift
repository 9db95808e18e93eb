import ArgumentParser
import Foundation

extension StoreGateCommand {
    struct Notifications: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Work on store server notifications.", subcommands: [Backfill.self])

        func run() throws { throw ValidationError("Name a notifications command: backfill.") }

        struct Backfill: StoreGateSubcommand {
            static let configuration = CommandConfiguration(
                abstract: "Record the notifications the store sent in a period that the ledger lacks (each once).",
                discussion: """
                    Reads Apple's notification history (apple.server_api; production, and the sandbox when \
                    accepted) and records every notification through the notification route's own path, once \
                    per notificationUUID: running it again changes nothing. Apple keeps 180 days.
                    """)

            @OptionGroup var options: ConfigOption
            @Option(
                help: ArgumentHelp(
                    "The start: RFC 3339, or a span back from now (90m, 48h, 7d).", valueName: "time"))
            var since: PastTime
            @Option(help: ArgumentHelp("The end (default: now).", valueName: "time"))
            var until: PastTime?

            func validate() throws {
                let end = until?.date ?? Date()
                guard since.date < end else { throw ValidationError("--since must be before --until.") }
                guard since.date > Date(timeIntervalSinceNow: -180 * 86_400) else {
                    throw ValidationError("Apple keeps notification history for 180 days; --since is older.")
                }
            }

            func run(in cli: StoreGateCLI) -> Int32 {
                cli.backfillNotifications(configFile: options.config, from: since.date, to: until?.date ?? Date())
            }
        }
    }
}
