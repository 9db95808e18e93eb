import ArgumentParser
import GatewayHandlerAPI

extension StoreGateCommand {
    struct Lookup: StoreGateSubcommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a customer's purchase: the ledger's timeline and Apple's current view.",
            discussion: """
                For support mail: the order id is on the customer's receipt email from Apple; a transaction id \
                (or original transaction id) finds the same; an app transaction id finds every purchase of the \
                customer's the ledger knows it for. Apple is asked through apple.server_api when set.
                """)

        @OptionGroup var options: ConfigOption
        @Option(
            name: .customLong("order-id"),
            help: ArgumentHelp(
                "An order id from Apple's receipt email, or Google Play's (GPA.…).", valueName: "id"))
        var orderId: String?
        @Option(name: .customLong("transaction-id"), help: ArgumentHelp("A transaction id.", valueName: "id"))
        var transactionId: String?
        @Option(
            name: .customLong("app-transaction-id"),
            help: ArgumentHelp("The customer's app transaction id (Apple's appTransactionId).", valueName: "id"))
        var appTransactionId: String?
        @Option(name: .customLong("grant"), help: ArgumentHelp("A free grant's id (grant-…).", valueName: "id"))
        var grantId: String?
        @Flag(help: "JSON instead of text.") var json = false

        func validate() throws {
            guard [orderId, transactionId, appTransactionId, grantId].compactMap({ $0 }).count == 1 else {
                throw ValidationError(
                    "Give --order-id, --transaction-id, --app-transaction-id or --grant (one of them).")
            }
        }

        func run(in cli: StoreGateCLI) -> Int32 {
            let query: SupportQuery =
                if let orderId {
                    .orderId(orderId)
                } else if let grantId {
                    .grantId(grantId)
                } else {
                    // The ledger finds a customer's purchases by their app transaction id as by a transaction id;
                    // so does Apple's transaction history.
                    .transactionId(transactionId ?? appTransactionId ?? "")
                }
            return cli.lookUp(query, configFile: options.config, json: json)
        }
    }
}
