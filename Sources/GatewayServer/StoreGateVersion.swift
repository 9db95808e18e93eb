import GatewayCore

/// The version `storegate --version` and the status route report.
package enum StoreGateVersion {
    package static let current = "0.1.0"
}
