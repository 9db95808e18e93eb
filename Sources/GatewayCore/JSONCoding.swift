import Foundation

/// The one way the gateway writes JSON, so every transport and handler answers the same bytes.
public enum JSONCoding {
    /// Sorted keys, no escaped slashes: stable output that hashes and caches well.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
