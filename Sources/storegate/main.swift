import Foundation
import GatewayServer
import StoreGateApp

exit(StoreGateCLI(registry: .compiledIn).run(Array(CommandLine.arguments.dropFirst())))
