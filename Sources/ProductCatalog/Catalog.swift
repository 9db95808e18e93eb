import Crypto
import Foundation
import GatewayCore

/// The master list of products, loaded once per config load. Only the catalog maps product ids to files.
public struct Catalog: Sendable {
    public let products: [Product]
    /// The folder every product file lives under (absolute, symlinks resolved).
    public let contentRoot: String
    /// A hash of everything the catalog route shows; changes whenever any product or file changes.
    public let version: String
    private let byId: [String: Product]

    public init(products: [Product], contentRoot: String) {
        self.products = products
        self.contentRoot = contentRoot
        self.byId = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let digest = SHA256.hash(data: Self.encodeProducts(products))
        self.version = digest.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    /// The product with this exact id.
    public func product(id: String) -> Product? { byId[id] }

    /// The catalog route's JSON body.
    public func renderJSON() -> [UInt8] {
        // Encoding strings and integers cannot fail.
        Array((try? JSONCoding.encoder.encode(Listing(version: version, products: products))) ?? Data())
    }

    private static func encodeProducts(_ products: [Product]) -> Data {
        (try? JSONCoding.encoder.encode(products.map(ListedProduct.init))) ?? Data()
    }

    private struct Listing: Encodable {
        let version: String
        let products: [ListedProduct]

        init(version: String, products: [Product]) {
            self.version = version
            self.products = products.map(ListedProduct.init)
        }
    }

    private struct ListedProduct: Encodable {
        struct ListedContent: Encodable {
            let size: Int
            let sha256: String
            let content_type: String
        }
        enum CodingKeys: String, CodingKey { case id, type, title, description, content }

        let product: Product

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(product.id, forKey: .id)
            try container.encode(product.kind.rawValue, forKey: .type)
            try container.encode(product.title, forKey: .title)
            try container.encode(product.description, forKey: .description)
            // Always present: null tells clients the product has nothing to download.
            try container.encode(
                product.content.map {
                    ListedContent(size: $0.size, sha256: $0.sha256, content_type: $0.contentType)
                },
                forKey: .content
            )
        }
    }
}
