import AppStoreReceipts
import Foundation
import GatewayHandlerAPI
import GatewayServer
import StoreGateApp
import TestbedHandlers
import TestbedStores

// The real storegate command line with the compiled-in handlers plus test-only ones (some of which attack the
// seal through the handler API), and the fixture store after the App Store.
// A module whose Needs is its own makes the registry refuse every config: in only when a test asks for it.
let ownNeeds: [HandlerModule] =
    ProcessInfo.processInfo.environment["TESTBED_OWN_NEEDS"] == "1" ? [.module(SourceMirroringHandler.self)] : []
let status = StoreGateCLI.main(
    Array(CommandLine.arguments.dropFirst()),
    registry: {
        HandlerRegistry.compiledIn.adding([
            .module(SlowHandler.self), .module(EchoHandler.self), .module(FixtureContentHandler.self),
            .module(EntitlementEchoHandler.self), .module(AccelHeaderHandler.self),
            .module(StashingContentHandler.self),
            .module(ReplayHandler.self), .module(UpgradeContentHandler.self), .module(ParkingHandler.self),
            .module(BorrowingHandler.self), .module(ReplayVerifyHandler.self), .module(CachingContentHandler.self),
            .module(LabelForgingHandler.self), .module(ReflectingHandler.self),
            .module(KeyPathWritingHandler.self), .module(ExchangeMirroringHandler.self),
            .module(EnvironmentReadingHandler.self), .module(RawRecordHandler.self),
            .module(RequestRewritingHandler.self),
            .module(EnvironmentChangingHandler.self), .module(EntitlementKeepingHandler.self),
            .module(RepeatingContentHandler.self), .module(TracingHandler.self),
            .module(RemoteProbeHandler.self),
        ]).adding(ownNeeds)
    }, stores: StoreGateCLI.compiledInStores + [FixtureVerification.self])
exit(status)
