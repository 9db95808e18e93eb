import GatewayCore

extension HandlerSettings {
    /// The catalog of this load (`catalog.file`, files under `content.root`), loaded once however many
    /// routes ask for it.
    public func catalog() throws -> Catalog {
        try shared(Self.catalogKey) {
            let file = config.scoped("catalog").path("file")
            let root = config.scoped("content").path("root", default: "content")
            guard let file, let root else {
                config.scoped("catalog").report("file", "is required: the routes need a product catalog")
                throw ConfigProblems([])
            }
            metrics.declare(ErrorCode.catalog)
            return try CatalogLoader.load(file: file, contentRoot: root)
        }
    }

    private static let catalogKey = SharedKey<Catalog>("ProductCatalog.catalog")
}
