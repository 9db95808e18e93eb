import Foundation

/// The products the app may sell, loaded once per config load; a handler declares it as its `Needs` to read
/// it. Only the catalog maps product ids to content, and which file that is stays with the content path.
public struct Catalog: HandedOutNeeds, CustomReflectable {
    public let products: [Product]
    /// A hash of everything the catalog route shows; changes whenever any product or file changes.
    public let version: String
    /// The folder every product file lives under (absolute, symlinks resolved): the content path's business.
    package let contentRoot: String
    private let byId: [String: Product]
    /// Per store, the products by their id there: `store_ids`, else the catalog's own id.
    private let byStoreId: [String: [String: Product]]

    /// A catalog of `products` whose files live under `contentRoot`; `version` hashes what the route shows.
    package init(products: [Product], contentRoot: String, version: String) {
        self.products = products
        self.contentRoot = contentRoot
        self.version = version
        self.byId = Dictionary(products.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let stores = Set(products.flatMap(\.storeIds.keys))
        byStoreId = Dictionary(
            uniqueKeysWithValues: stores.map { store in
                (store, Dictionary(Self.storeIds(products, in: store), uniquingKeysWith: { first, _ in first }))
            })
    }

    /// The products of `products` by their id in `store`, in order (a store id the catalog gives first, then
    /// the catalog's own ids of products with none there); a name given twice is the loader's problem to report.
    package static func storeIds(_ products: [Product], in store: String) -> [(String, Product)] {
        products.compactMap { product in product.storeIds[store].map { ($0, product) } }
            + products.filter { $0.storeIds[store] == nil }.map { ($0.id, $0) }
    }

    public static func provided(by source: CapabilitySource) throws -> Provision<Catalog> {
        Provision(try source.provider.catalog())
    }

    /// Its public facts only: the content root is the content path's (a fifteenth reviewer read it by `Mirror`).
    public var customMirror: Mirror { Mirror(self, children: ["products": products, "version": version]) }

    /// The product with this exact id.
    public func product(id: String) -> Product? { byId[id] }

    /// The product `store` sells as `id`: the one whose `store_ids` gives it that id there, else the one with
    /// that id and none of its own there.
    public func product(store: String, id: String) -> Product? {
        if let stored = byStoreId[store] { return stored[id] }
        return byId[id]
    }

    /// The catalog route's JSON body.
    public func renderJSON() -> [UInt8] {
        // Encoding strings and integers cannot fail.
        Array((try? JSONCoding.encoder.encode(Listing(version: version, products: products))) ?? Data())
    }

    /// The products as the catalog route lists them, which ``version`` hashes.
    package static func listing(_ products: [Product]) -> Data {
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
        enum CodingKeys: String, CodingKey { case id, type, title, description, content, storeIds = "store_ids" }

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
            // Only when the catalog gives one: the id to buy the product by in that store.
            if !product.storeIds.isEmpty { try container.encode(product.storeIds, forKey: .storeIds) }
        }
    }
}
