import Foundation

extension ConfigReader {
    /// The URL at `key`: https, or http only to a loopback address (a local stand-in), so a typo cannot send
    /// receipts or credentials over the network in clear text. A wrong value is reported and the default used.
    public func serviceURL(_ key: String, default defaultValue: String) -> String {
        let text = string(key, default: defaultValue)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host else {
            report(key, "must be a URL such as \(defaultValue)")
            return defaultValue
        }
        let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else {
            report(key, "must use https (plain http is allowed only to 127.0.0.1, ::1 or localhost)")
            return defaultValue
        }
        return text
    }
}
