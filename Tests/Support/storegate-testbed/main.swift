import Foundation
import GatewayCore
import StoreGateApp
import TestbedHandlers

// The real storegate command line with the compiled-in handlers plus test-only ones.
exit(StoreGateCLI(registry: TestbedRegistry.adding(to: .storegate)).run(Array(CommandLine.arguments.dropFirst())))
