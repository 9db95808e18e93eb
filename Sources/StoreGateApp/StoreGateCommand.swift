import ArgumentParser
import GatewayHandlerAPI
import GatewayServer

/// The `storegate` command line as swift-argument-parser reads it: the root command and its subcommands,
/// each with `--help`. Parsing only: ``StoreGateCLI`` runs what was parsed.
struct StoreGateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storegate",
        abstract: "Server-delivered in-app purchases behind nginx: a FastCGI gateway.",
        discussion:
            "With no arguments and GATEWAY_INTERFACE set, answers one CGI request (config from STOREGATE_CONFIG).",
        version: "storegate \(StoreGateVersion.current)",
        subcommands: [
            Serve.self, CheckConfig.self, Lookup.self, Grant.self, Ledger.self, Notifications.self, Events.self,
            Content.self, Version.self,
        ]
    )

    func run() throws { throw ValidationError("Name a command.") }
}

/// A subcommand that runs with the command line's registry, environment and logger; returns the exit status.
protocol StoreGateSubcommand: ParsableCommand {
    func run(in cli: StoreGateCLI) -> Int32
}

/// The `--config FILE` option of the commands that load a config.
struct ConfigOption: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The config file (YAML).", valueName: "file"))
    var config: String
}

extension StoreGateCommand {
    struct Serve: StoreGateSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the FastCGI server (server.listen, or the socket on fd 0).")

        @OptionGroup var options: ConfigOption

        func run(in cli: StoreGateCLI) -> Int32 { cli.serve(configFile: options.config) }
    }

    struct CheckConfig: StoreGateSubcommand {
        static let configuration = CommandConfiguration(
            commandName: "check-config",
            abstract: "Report every problem in config, catalog and content, errors and warnings; exit 1 on an error.",
            discussion: """
                One line each: `error:` or `warning:`, the key path (with the environment variable, when the value \
                came from there), and why. Warnings (keys nothing reads, variables that name no key, routes that \
                cannot answer as configured) do not stop a gateway from starting.
                """
        )

        @OptionGroup var options: ConfigOption

        @Flag(help: "Exit 1 on a warning too (for CI).")
        var strict = false

        @Flag(help: "Also check that every catalog object is in the storage, with the catalog's size (a HEAD each).")
        var remote = false

        func run(in cli: StoreGateCLI) -> Int32 {
            cli.checkConfig(configFile: options.config, strict: strict, remote: remote)
        }
    }

    struct Version: StoreGateSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the version and the handler modules built in, with where each came from.")

        func run(in cli: StoreGateCLI) -> Int32 { cli.printVersion() }
    }

    struct Ledger: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Work on a purchase ledger.", subcommands: [Copy.self])

        func run() throws { throw ValidationError("Name a ledger command: copy.") }

        struct Copy: StoreGateSubcommand {
            static let configuration = CommandConfiguration(
                abstract: "Copy every ledger row (sqlite:FILE, postgres://...); rows the target has are kept.")

            @Option(help: ArgumentHelp("The ledger to read.", valueName: "url")) var from: String
            @Option(help: ArgumentHelp("The ledger to add to.", valueName: "url")) var to: String

            func run(in cli: StoreGateCLI) -> Int32 { cli.copyLedger(from: from, to: to) }
        }
    }
}
