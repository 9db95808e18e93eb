import GatewayHandlerAPI

/// Which product types a family member's access through Family Sharing entitles to (config `family_sharing`):
/// every type unless `grants_by_type` says otherwise, as Apple intends a purchase shared with the family to be
/// the family's. The access is recorded either way.
package struct FamilySharing: Sendable {
    private let refusedKinds: Set<Product.Kind>

    /// Every type grants.
    package static let everyType = FamilySharing(refusedKinds: [])

    private init(refusedKinds: Set<Product.Kind>) {
        self.refusedKinds = refusedKinds
    }

    /// The `family_sharing` section: `grants_by_type: { <catalog type>: true | false }`.
    package init(section scope: ConfigReader) {
        let byType = scope.scoped("grants_by_type")
        self.init(refusedKinds: Set(Product.Kind.allCases.filter { !byType.bool($0.rawValue, default: true) }))
    }

    /// Whether a family member's access to a product of `kind` entitles them to it.
    package func grants(_ kind: Product.Kind) -> Bool { !refusedKinds.contains(kind) }
}
