/// Which App Store Server API host a call went to.
package enum ServerAPIEnvironment: String, Sendable {
    case production = "Production"
    case sandbox = "Sandbox"
}
