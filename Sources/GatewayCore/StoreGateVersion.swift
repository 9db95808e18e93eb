/// The version `storegate --version` and the status route report.
public enum StoreGateVersion {
    public static let current = "0.1.0"
}
