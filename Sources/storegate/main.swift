import Foundation
import GatewayCore
import StoreGateApp

exit(StoreGateCLI(registry: .storegate).run(Array(CommandLine.arguments.dropFirst())))
