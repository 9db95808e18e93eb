/// Which App Store Server API host a call went to.
public enum ServerAPIEnvironment: String, Sendable {
    case production = "Production"
    case sandbox = "Sandbox"
}
