import ConfigYAML
import Crypto
import Foundation
import GatewayHandlerAPI

/// Reads a catalog file, checks every product, and measures every content file (size and SHA-256); an object in
/// the content storage comes with its size and SHA-256 given (`storegate content measure` writes them).
package enum CatalogLoader {
    /// Loads `file`, with product files under `contentRoot`. Throws ``ConfigProblems`` naming every problem
    /// as `FILE: products[i].key: why`.
    package static func load(file: String, contentRoot: String) throws(ConfigProblems) -> Catalog {
        let document = try ConfigValue.read(file: file, describedAs: "the catalog file")
        let root = ContentRoot(path: contentRoot)
        let reader = ConfigReader(document: document, yamlBaseDirectory: root.path, environment: [:])
        // A catalog whose content is all in the storage needs no folder (a gateway with no local content).
        if root.resolved == nil, reader.sequence("products").contains(where: { $0.value("content") != nil }) {
            reader.report(nil, "content root \(contentRoot) is not a readable folder")
        }
        var ids = Set<String>()
        let products = reader.sequence("products").compactMap { entry -> Product? in
            guard let product = product(from: entry, root: root) else { return nil }
            guard ids.insert(product.id).inserted else {
                entry.report("id", "\"\(product.id)\" is listed twice")
                return nil
            }
            return product
        }
        if products.isEmpty, reader.problems.isEmpty { reader.report("products", "the catalog lists no products") }
        reportStoreIdsGivenTwice(products, entries: reader.sequence("products"))
        // The catalog is read whole: a key nothing read is a mistake, with the nearest known key when it is near.
        for unknown in reader.unusedKeyWarnings {
            reader.report(unknown.keyPath, unknown.message.hasPrefix("unknown key") ? unknown.message : "unknown key")
        }
        let problems = reader.problems.map { ConfigProblem(keyPath: "\(file): \($0.keyPath)", message: $0.message) }
        guard problems.isEmpty else { throw ConfigProblems(problems) }
        let digest = SHA256.hash(data: Catalog.listing(products))
        let version = digest.prefix(16).map { String(format: "%02x", $0) }.joined()
        return Catalog(products: products, contentRoot: root.resolved ?? root.path, version: version)
    }

    private static func product(from entry: ConfigReader, root: ContentRoot) -> Product? {
        let id = entry.requiredString("id")
        if let id, !ProductId.isValid(id) {
            entry.report("id", "\"\(id)\" may hold only letters, digits, '.', '_' and '-' (at most 255)")
        }
        let typeText = entry.requiredString("type")
        let kind = typeText.flatMap(Product.Kind.init(rawValue:))
        if let typeText, kind == nil {
            let kinds = Product.Kind.allCases.map(\.rawValue).joined(separator: ", ")
            entry.report("type", "\"\(typeText)\" is not one of \(kinds)")
        }
        let title = entry.string("title", default: "")
        let description = entry.string("description", default: "")
        let contentType = entry.string("content_type", default: "application/octet-stream")
        // A header's value and a signed link's parameter: a line break would split an answer (found by a
        // forty-third reviewer asking the storage for one).
        if contentType.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f }) {
            entry.report("content_type", "must be a media type such as application/pdf, with no control characters")
        }
        var content: Product.Content?
        if let relative = entry.string("content") {
            if entry.value("object") != nil {
                entry.report("object", "names the content a second time: give content or object")
            }
            switch root.measure(relative) {
            case .success(let measured):
                content = Product.Content(
                    relativePath: relative,
                    size: measured.size,
                    sha256: measured.sha256,
                    contentType: contentType
                )
            case .failure(let problem):
                entry.report("content", problem.message)
            }
        } else if let key = entry.string("object") {
            content = object(key, entry: entry, contentType: contentType)
        }
        let storeIds = storeIds(entry)
        let group = entry.string("group")
        if group != nil, kind != nil, kind != .autoRenewable {
            entry.report("group", "only an auto-renewable subscription belongs to a subscription group")
        }
        guard let id, ProductId.isValid(id), let kind else { return nil }
        return Product(
            id: id, kind: kind, title: title, description: description, content: content,
            offersSample: entry.bool("sample", default: false), storeIds: storeIds,
            subscriptionGroup: group)
    }

    /// An object in the content storage: its key, and the size and SHA-256 the catalog must give with it.
    private static func object(_ key: String, entry: ConfigReader, contentType: String) -> Product.Content? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        if key.isEmpty || key.hasPrefix("/") || key.utf8.count > 1024
            || key.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f })
            || parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty })
        {
            entry.report(
                "object",
                "\(String(reflecting: key)) must be an object key such as levels/9.pak (no leading /, no empty, . or .. part, no control characters, at most 1024 bytes)"
            )
            return nil
        }
        let measure = "(storegate content measure writes it from the storage)"
        let sizeText = entry.string("size")
        let size = sizeText.flatMap { Int($0) }
        if sizeText == nil {
            entry.report("size", "is required for an object \(measure)")
        } else if (size ?? -1) < 0 {
            entry.report("size", "must be the object's size in bytes, not \"\(sizeText!)\"")
        }
        let digest = entry.string("sha256")
        let isDigest = digest.map { $0.utf8.count == 64 && $0.allSatisfy { "0123456789abcdef".contains($0) } } ?? false
        if digest == nil {
            entry.report("sha256", "is required for an object \(measure)")
        } else if !isDigest {
            entry.report("sha256", "must be the object's SHA-256 in 64 lower-case hex digits")
        }
        guard let size, size >= 0, let digest, isDigest else { return nil }
        return Product.Content(source: .object(key), size: size, sha256: digest, contentType: contentType)
    }

    /// The stores whose product ids the catalog may give (`store_ids`): Google Play's often differ from the
    /// App Store's, which are the catalog's own.
    static let stores = ["google-play"]

    /// `store_ids`: the product's id in each store that names it otherwise than the catalog.
    private static func storeIds(_ entry: ConfigReader) -> [String: String] {
        guard let value = entry.value("store_ids") else { return [:] }
        guard case .mapping(let entries) = value else {
            entry.report("store_ids", "must give the product's id per store, such as google-play: book_1")
            return [:]
        }
        let section = entry.scoped("store_ids")
        var ids: [String: String] = [:]
        for store in entries.keys.sorted() {
            let id = section.string(store)
            guard stores.contains(store) else {
                section.report(store, "is not a store whose ids the catalog gives (\(stores.joined(separator: ", ")))")
                continue
            }
            guard let id, ProductId.isValid(id) else {
                section.report(store, "must be the product's id in that store (letters, digits, '.', '_' and '-')")
                continue
            }
            ids[store] = id
        }
        return ids
    }

    /// A store id that names two products (given twice, or given as another product's own id there).
    private static func reportStoreIdsGivenTwice(_ products: [Product], entries: [ConfigReader]) {
        for store in stores {
            var seen: [String: String] = [:]
            for (id, product) in Catalog.storeIds(products, in: store) {
                if let first = seen[id] {
                    let entry = entries.first { $0.string("id") == product.id }
                    entry?.report(
                        product.storeIds[store] == nil ? "id" : "store_ids.\(store)",
                        "\(store) id \"\(id)\" names both \(first) and \(product.id)")
                } else {
                    seen[id] = product.id
                }
            }
        }
    }
}
