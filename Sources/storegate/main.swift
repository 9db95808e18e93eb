import Foundation
import GatewayServer
import StoreGateApp

exit(StoreGateCLI.main(Array(CommandLine.arguments.dropFirst()), registry: { .compiledIn }))
