import ArgumentParser
import Foundation
import PurchaseVerification

extension StoreGateCommand {
    struct Grant: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Give a product away (a press copy, a promo, a goodwill replacement); revoke or list grants.",
            discussion: """
                A grant is recorded in the ledger as its own purchase (source grant). One for an app account \
                (--account) is listed by the entitlements route with a download token; one for a customer \
                (--customer, the original transaction id of one of their purchases) comes with every verify and \
                restore-sync of that purchase. Until it expires (--expires) or is revoked.
                """,
            subcommands: [Give.self, Revoke.self, List.self], defaultSubcommand: Give.self)

        struct Give: StoreGateSubcommand {
            static let configuration = CommandConfiguration(
                commandName: "give", abstract: "Give a product to an app account or a customer (the default).")

            @OptionGroup var options: ConfigOption
            @Option(help: ArgumentHelp("The catalog's product id.", valueName: "id")) var product: String
            @Option(help: ArgumentHelp("The app account to give it to.", valueName: "id")) var account: String?
            @Option(
                help: ArgumentHelp(
                    "The customer to give it to, by the original transaction id of one of their purchases.",
                    valueName: "id"))
            var customer: String?
            @Option(
                help: ArgumentHelp(
                    "Production or Sandbox (default: the customer's purchase's, or Production).", valueName: "name"))
            var environment: String?
            @Option(help: ArgumentHelp("Why it is given (kept in the ledger).", valueName: "text")) var reason: String
            @Option(name: .customLong("by"), help: ArgumentHelp("Who gives it.", valueName: "name")) var grantedBy:
                String
            @Option(help: ArgumentHelp("When it ends: RFC 3339, or a span ahead (30d).", valueName: "time"))
            var expires: FutureTime?
            @Flag(help: "JSON instead of text.") var json = false

            func validate() throws {
                guard (account == nil) != (customer == nil) else {
                    throw ValidationError("Give --account or --customer (one of them).")
                }
                try Grant.requireWords(reason, "--reason")
                try Grant.requireWords(grantedBy, "--by")
            }

            func run(in cli: StoreGateCLI) -> Int32 {
                let recipient: FreeGrantRecipient =
                    if let account { .account(account) } else { .customer(originalTransactionId: customer ?? "") }
                return cli.give(
                    product, to: recipient, environment: environment, reason: reason, grantedBy: grantedBy,
                    expires: expires?.date, configFile: options.config, json: json)
            }
        }

        struct Revoke: StoreGateSubcommand {
            static let configuration = CommandConfiguration(
                abstract: "Revoke a grant: its entitlement, tokens and downloads stop at once.")

            @OptionGroup var options: ConfigOption
            @Option(name: .customLong("grant"), help: ArgumentHelp("The grant's id (grant-…).", valueName: "id"))
            var grantId: String
            @Option(help: ArgumentHelp("Why it is revoked (kept in the ledger).", valueName: "text")) var reason: String
            @Option(name: .customLong("by"), help: ArgumentHelp("Who revokes it.", valueName: "name"))
            var revokedBy: String
            @Flag(help: "JSON instead of text.") var json = false

            func validate() throws {
                try Grant.requireWords(reason, "--reason")
                try Grant.requireWords(revokedBy, "--by")
            }

            func run(in cli: StoreGateCLI) -> Int32 {
                cli.revoke(grantId, reason: reason, revokedBy: revokedBy, configFile: options.config, json: json)
            }
        }

        struct List: StoreGateSubcommand {
            static let configuration = CommandConfiguration(abstract: "List the grants in force, newest first.")

            @OptionGroup var options: ConfigOption
            @Flag(help: "Every grant, expired and revoked ones too.") var all = false
            @Flag(help: "JSON instead of text.") var json = false

            func run(in cli: StoreGateCLI) -> Int32 { cli.listGrants(all: all, configFile: options.config, json: json) }
        }

        /// Refuses an empty or blank `value` of `option`.
        static func requireWords(_ value: String, _ option: String) throws {
            guard !value.trimmingCharacters(in: .whitespaces).isEmpty else {
                throw ValidationError("\(option) must say something: it is kept in the ledger for whoever asks later.")
            }
        }
    }
}
