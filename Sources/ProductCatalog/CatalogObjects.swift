import Foundation
import Yams

/// The products of a catalog file whose content is an object in the storage, and the file rewritten with each
/// object's size and SHA-256 (what `storegate content measure` writes). Read as YAML nodes, so keys keep their
/// order; comments are not kept (Yams drops them).
package struct CatalogObjects {
    /// A product whose content is an object: its id and the object's key.
    package struct Entry: Sendable, Equatable {
        package let productId: String
        package let key: String
    }

    private var document: Node
    package let file: String

    /// Why the catalog could not be read or written, in words.
    package struct Problem: Error, Sendable {
        package let message: String
    }

    package init(file: String) throws(Problem) {
        self.file = file
        do {
            let text = try String(contentsOfFile: file, encoding: .utf8)
            guard let node = try Yams.compose(yaml: text) else { throw Problem(message: "\(file) is empty") }
            document = node
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(message: "cannot read the catalog file \(file): \(error)")
        }
    }

    /// Every product with an `object:` key, in the catalog's order.
    package var entries: [Entry] {
        (document["products"]?.sequence ?? []).compactMap { product in
            guard let id = product["id"]?.string, let key = product["object"]?.string else { return nil }
            return Entry(productId: id, key: key)
        }
    }

    /// Sets the `size` and `sha256` of the product `productId`'s object.
    package mutating func set(_ productId: String, size: Int, sha256: String) {
        guard var products = document["products"]?.sequence else { return }
        for index in products.indices where products[index]["id"]?.string == productId {
            guard var mapping = products[index].mapping else { continue }
            mapping["size"] = Node(String(size), Tag(.int))
            mapping["sha256"] = Node(sha256, Tag(.str), .doubleQuoted)
            products[index] = .mapping(mapping)
        }
        document["products"] = .sequence(products)
    }

    /// Writes the catalog to `path` (the file it came from, by default) whole or not at all: a new file renamed
    /// over the old.
    package func write(to path: String? = nil) throws(Problem) {
        let target = path ?? file
        // A name no one can guess, created afresh (never through a link someone left there).
        let temporary = target + ".storegate-\(UUID().uuidString).tmp"
        do {
            let text = try Yams.serialize(node: document, width: -1, allowUnicode: true, sortKeys: false)
            try Data(text.utf8).write(to: URL(fileURLWithPath: temporary), options: .withoutOverwriting)
            guard rename(temporary, target) == 0 else {
                throw Problem(message: "cannot replace \(target): \(String(cString: strerror(errno)))")
            }
        } catch let problem as Problem {
            try? FileManager.default.removeItem(atPath: temporary)
            throw problem
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw Problem(message: "cannot write \(target): \(error.localizedDescription)")
        }
    }
}
