import ArgumentParser
import Foundation

extension StoreGateCommand {
    struct Events: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the ledger's events, or send them again to the app's backend.",
            subcommands: [List.self, Replay.self])

        func run() throws { throw ValidationError("Name an events command: list or replay.") }

        struct List: StoreGateSubcommand {
            static let configuration = CommandConfiguration(
                abstract: "Print the events written since a moment, one JSON body per line, oldest first.",
                discussion: "Each line is the body an endpoint gets (docs/API.md, Events), with its id.")

            @OptionGroup var options: ConfigOption
            @Option(
                help: ArgumentHelp("The start: RFC 3339, or a span back from now (90m, 48h, 7d).", valueName: "time"))
            var since: PastTime

            func run(in cli: StoreGateCLI) -> Int32 { cli.listEvents(configFile: options.config, since: since.date) }
        }

        struct Replay: StoreGateSubcommand {
            static let configuration = CommandConfiguration(
                abstract:
                    "Send again every event written since a moment, under the same ids (for a receiver that lost its data).",
                discussion: """
                    The serving gateways deliver them, in order per purchase, as they deliver new ones; an event \
                    written before an endpoint was configured is sent to it too, if it takes the event's type.
                    """)

            @OptionGroup var options: ConfigOption
            @Option(
                help: ArgumentHelp("The start: RFC 3339, or a span back from now (90m, 48h, 7d).", valueName: "time"))
            var since: PastTime
            @Option(help: ArgumentHelp("Only this endpoint (default: every one configured).", valueName: "name"))
            var endpoint: String?

            func run(in cli: StoreGateCLI) -> Int32 {
                cli.replayEvents(configFile: options.config, since: since.date, endpoint: endpoint)
            }
        }
    }
}
