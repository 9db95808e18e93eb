import Foundation
import GatewayCore
import StoreGateApp

exit(StoreGateCLI(registry: .compiledIn).run(Array(CommandLine.arguments.dropFirst())))
