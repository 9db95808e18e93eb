import GatewayCore

/// The handlers only the test gateway carries.
public enum TestbedRegistry {
    public static let modules: [any HandlerModule.Type] = [
        SlowHandler.self, EchoHandler.self, FixtureContentHandler.self, EntitlementEchoHandler.self,
    ]
}
