import Foundation

/// Where a package's build takes each package from outside, by identity: the tree SwiftPM resolves for it,
/// folders included.
struct DependencyGraph {
    /// Each package's locations (more than one when packages of one identity come from different places).
    let locations: [String: Set<String>]

    /// The tree SwiftPM resolves for the package at `folder`, as `swift package show-dependencies` shows it (a
    /// package from a folder by its path), resolved first. Not its `Package.resolved`: a build with another
    /// manifest may have left it without a pin its own manifest needs (a twenty-ninth reviewer's checkout had lost
    /// swift-nio-ssl's), and resolving did not always put it back; and where packages of one identity conflict (a
    /// module package's own `swift-log` folder beside storegate's), SwiftPM pinned the repository and built the
    /// folder, depending on the order it met them in (the checkout's folder name decided it).
    /// With `scratch`, SwiftPM resolves there instead of the package's own build folder, whose lock a build or
    /// `swift test` of the checkout holds for as long as it runs.
    init(resolvedTreeOf folder: URL, scratch: URL? = nil) throws {
        let shown = try Subprocess.run(
            "swift",
            ["package", "--package-path", folder.path] + (scratch.map { ["--scratch-path", $0.path] } ?? [])
                + ["show-dependencies", "--format", "json"])
        guard shown.status == 0,
            let tree = try? JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any]
        else {
            throw BuildProblem("cannot read the packages of \(folder.path):\n\(shown.errors)")
        }
        var locations: [String: Set<String>] = [:]
        var pending = tree["dependencies"] as? [[String: Any]] ?? []
        while let package = pending.popLast() {
            if let identity = package["identity"] as? String, let url = package["url"] as? String {
                locations[identity, default: []].insert(url)
            }
            pending += package["dependencies"] as? [[String: Any]] ?? []
        }
        self.locations = locations
    }

    /// Refuses a module package that has the name of a package in this graph (storegate's): its folder named
    /// `yams` would stand in for storegate's.
    func refuseStandIns(among modules: [ModulePackage]) throws {
        for module in modules where locations[module.identity] != nil {
            throw BuildProblem(
                "the module package at \(module.folder.path) has the name of a package storegate builds with "
                    + "(\(module.identity)), so SwiftPM would build it in that one's place; give its folder another name"
            )
        }
    }

    /// Refuses a graph where a package storegate builds with would come from elsewhere: SwiftPM keys packages by
    /// identity, so a module package's own `swift-crypto` (a folder so named, a fork) would be built for storegate
    /// too, and SwiftPM only warns (a twenty-eighth reviewer's read every secret through a forked `SymmetricKey`).
    func check(against storegate: DependencyGraph) throws {
        for (identity, places) in storegate.locations.sorted(by: { $0.key < $1.key }) {
            guard let location = places.first else { continue }
            let elsewhere = (locations[identity] ?? []).filter { Self.normalized($0) != Self.normalized(location) }
            guard elsewhere.isEmpty, locations[identity] != nil else {
                let here = elsewhere.sorted().first.map { $0.hasPrefix("/") ? "a local folder" : $0 }
                throw BuildProblem(
                    "storegate builds with \(identity) from \(location); a module package names another package of "
                        + "that name (\(here ?? "a local folder")), which SwiftPM would build in its place, for "
                        + "storegate too. Depend on storegate's, or give yours another name")
            }
        }
    }

    /// `https://github.com/apple/swift-atomics.git` and `…/Swift-Atomics` are one place.
    private static func normalized(_ url: String) -> String {
        let lower = url.lowercased()
        return lower.hasSuffix(".git") ? String(lower.dropLast(4)) : lower
    }
}
