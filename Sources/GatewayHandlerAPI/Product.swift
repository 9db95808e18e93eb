/// One product the app may sell, as the catalog file declares it.
public struct Product: Sendable, Equatable {
    /// The App Store kinds of in-app purchase.
    public enum Kind: String, Sendable, CaseIterable {
        case consumable
        case nonConsumable = "non-consumable"
        case autoRenewable = "auto-renewable"
        case nonRenewing = "non-renewing"
        case freeSubscription = "free-subscription"
    }

    public let id: String
    public let kind: Kind
    public let title: String
    public let description: String
    /// The downloadable file, or nil for products with no content.
    public let content: Content?
    /// A free sample or preview of the content was offered before the purchase (`sample: true`), a fact a
    /// store asks about when the customer wants a refund.
    public let offersSample: Bool
    /// The product's id in a store whose id for it is not the catalog's (`store_ids`, by store: `google-play`).
    public let storeIds: [String: String]
    /// The App Store subscription group of an auto-renewable subscription (`group`), whose members share an
    /// introductory offer; nil when the catalog gives none (the product is then a group of its own).
    public let subscriptionGroup: String?

    package init(
        id: String, kind: Kind, title: String, description: String, content: Content?, offersSample: Bool = false,
        storeIds: [String: String] = [:], subscriptionGroup: String? = nil
    ) {
        self.subscriptionGroup = subscriptionGroup
        self.id = id
        self.kind = kind
        self.title = title
        self.description = description
        self.content = content
        self.offersSample = offersSample
        self.storeIds = storeIds
    }

    /// A product's content: a file under `content.root`, measured when the catalog was loaded, or an object in
    /// the content storage, whose size and SHA-256 the catalog gives.
    public struct Content: Sendable, Equatable, CustomReflectable {
        /// Where the bytes are: the content path's business, never a handler's.
        package enum Source: Sendable, Equatable {
            /// The path under `content.root`, as the catalog gives it (`issues/42.pdf`).
            case file(String)
            /// The object's key in the storage (`levels/9.pak`).
            case object(String)
        }

        package let source: Source
        public let size: Int
        /// Lowercase hex SHA-256 of the file's bytes.
        public let sha256: String
        public let contentType: String

        /// The path under `content.root`, or nil for an object.
        package var relativePath: String? { if case .file(let path) = source { path } else { nil } }

        /// The name a download is saved under: the path's or key's last part.
        package var fileName: String {
            let path =
                switch source {
                case .file(let path), .object(let path): path
                }
            return String(path.split(separator: "/").last ?? "content")
        }

        /// Its public facts only: the path is the content path's.
        public var customMirror: Mirror {
            Mirror(self, children: ["size": size, "sha256": sha256, "contentType": contentType])
        }

        package init(relativePath: String, size: Int, sha256: String, contentType: String) {
            self.init(source: .file(relativePath), size: size, sha256: sha256, contentType: contentType)
        }

        package init(source: Source, size: Int, sha256: String, contentType: String) {
            self.source = source
            self.size = size
            self.sha256 = sha256
            self.contentType = contentType
        }
    }
}
