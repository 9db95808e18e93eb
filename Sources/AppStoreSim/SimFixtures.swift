import Foundation
import Yams

/// A fixture file: `receipts:` (a list of ``SimReceipt``), in YAML or JSON.
public enum SimFixtures {
    private struct File: Decodable {
        let receipts: [SimReceipt]
    }

    public static func load(path: String) throws -> [SimReceipt] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try YAMLDecoder().decode(File.self, from: text).receipts
    }
}
