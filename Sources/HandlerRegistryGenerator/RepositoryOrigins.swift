import Foundation

/// Where the packages the gateway's own modules build with come from, against where the packages that depend on
/// them say.
///
/// SwiftPM builds one package per identity for the whole graph, from whichever requirement it meets, so a package
/// a handler module's package names decides what the gateway's own modules are built with. A thirtieth reviewer's
/// helper package in the repository named a fork of swift-nio-ssl by its own URL (it journaled what
/// AsyncHTTPClient sent Apple). A thirty-first's named `http://127.0.0.1:8099?@github.com/apple/swift-nio-ssl`,
/// GitHub's location to a reading that dropped everything up to the `@`, another host to git; another the
/// gateway's own location at a pull request's head, which GitHub serves from the base repository and SwiftPM's
/// clone fetches; and another a fork whose own manifest quoted its location, which counted while every gateway
/// manifest did. So trust runs down from this package's manifest: a package is the gateway's own when a package
/// already trusted depends on it and names its location in its manifest (every string literal outside comments,
/// so a location named under some condition counts), and it is resolved at a released version, a tag, which only
/// the repository's owners make. A package never vouches for itself, and forks cannot vouch for each other.
struct RepositoryOrigins {
    /// A package resolved from a repository: its identity, its location, the version it was resolved at (or what
    /// SwiftPM shows for a revision or branch) and its commit, as SwiftPM reports them.
    struct Origin: Equatable {
        let identity: String
        let location: String
        let version: String
        let revision: String
    }

    private let root: String
    private let manifests: [String: [String]]
    private let dependencies: [(parent: String, child: String)]

    /// The packages below `root` (this package's identity), with each package's manifests (paths) by identity, and
    /// which depends on which.
    init(root: String, manifests: [String: [String]], dependencies: [(parent: String, child: String)]) {
        self.root = root
        self.manifests = manifests
        self.dependencies = dependencies
    }

    /// A refusal for each origin that no trusted package names where it comes from, or that is not at a released
    /// version, and for each package below the root that comes from no repository at all: `registryCopies` says
    /// which registry copy (identity and version) the build takes for a package. A thirty-second reviewer's
    /// mirror of Yams to a registry identity, served by a registry of his own, was never compared: only
    /// repositories were.
    func refusals(of origins: [Origin], registryCopies: [String: String] = [:]) -> [String] {
        let byIdentity = Dictionary(origins.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
        var trusted: Set = [root]
        var pending = [root]
        // What the trusted packages that depend on each package name for it, canonical, and as written.
        var named: [String: [String: String]] = [:]
        while !pending.isEmpty {
            let parent = pending.removeFirst()
            let locations = locations(namedBy: parent)
            for child in dependencies.filter({ $0.parent == parent }).map(\.child) where !trusted.contains(child) {
                guard let origin = byIdentity[child] else { continue }
                named[child, default: [:]].merge(locations[child] ?? [:]) { first, _ in first }
                guard let canonical = Self.canonicalLocation(of: origin.location),
                    locations[child]?[canonical] != nil, Self.isReleasedVersion(origin.version)
                else { continue }
                trusted.insert(child)
                pending.append(child)
            }
        }
        let unsourced = Set(dependencies.map(\.child)).subtracting(byIdentity.keys).subtracting([root])
        let notFromRepositories = unsourced.sorted().map { identity in
            "error: the gateway's own modules build with \(identity), and this build takes it from "
                + (registryCopies[identity].map { "a package registry, as \($0)" } ?? "no repository")
                + " (a mirror or a registry identity in SwiftPM's configuration): only the repositories the "
                + "manifests of the gateway's packages name are trusted, so that copy cannot be; resolve \(identity) "
                + "from its repository"
        }
        return notFromRepositories
            + origins.filter { !trusted.contains($0.identity) }.sorted {
                $0.identity < $1.identity
            }.map { origin in
                let identity = origin.identity
                let names = (named[identity] ?? [:]).values.sorted()
                guard let canonical = Self.canonicalLocation(of: origin.location), named[identity]?[canonical] != nil
                else {
                    return "error: the gateway's own modules build with \(identity), and this build takes it from "
                        + "\(origin.location), which none of the manifests of the gateway's packages that depend on it "
                        + "names (they name \(names.isEmpty ? "no location" : names.joined(separator: " or "))): a handler "
                        + "module's package names that repository, and it would be built into the gateway in place of "
                        + "the one they resolve; depend on \(identity) where the gateway does"
                }
                return "error: the gateway's own modules build with \(identity), and this build takes it at commit "
                    + "\(origin.revision) (\(origin.version)), a revision or branch, not a released version: a handler "
                    + "module's package asks for it so, and that code would be built into the gateway; depend on "
                    + "\(identity) by version, as the gateway does"
            }
    }

    /// By identity, each location the manifests of package `identity` name, canonical, and as written.
    private func locations(namedBy identity: String) -> [String: [String: String]] {
        var locations: [String: [String: String]] = [:]
        for path in manifests[identity] ?? [] {
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            for literal in Self.stringLiterals(in: text) {
                guard let canonical = Self.canonicalLocation(of: literal) else { continue }
                locations[Self.identity(ofCanonical: canonical), default: [:]][canonical] = literal
            }
        }
        return locations
    }

    /// Whether `text` is a semantic version (`2.37.6`, `1.0.0-beta.1`), as SwiftPM shows a package resolved by one.
    static func isReleasedVersion(_ text: String) -> Bool {
        let parts = text.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false)
        let core = parts[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let numbers = core[0].split(separator: ".", omittingEmptySubsequences: false)
        let plain = { (part: Substring) in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }
        let label = { (part: Substring) in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }
        }
        return numbers.count == 3 && numbers.allSatisfy(plain) && core.dropFirst().allSatisfy(label)
            && parts.dropFirst().allSatisfy(label)
    }

    /// A package's identity from its canonical location, as SwiftPM takes it: the last path component.
    static func identity(ofCanonical location: String) -> String {
        location.split(separator: "/").last.map(String.init) ?? ""
    }

    /// A location as SwiftPM compares them: lowercased, without scheme, user, `.git` or a trailing slash (so
    /// `https://github.com/apple/swift-nio-ssl.git` and `git@github.com:apple/swift-nio-ssl` are one); nil for
    /// anything but a plain location (`scheme://[user@]host[:port]/path`, `user@host:path`, `/path`) of letters,
    /// digits and `.-_~`, with no `.` or `..` segment.
    static func canonicalLocation(of location: String) -> String? {
        let text = location.lowercased()
        let word = { (part: Substring) in
            !part.isEmpty && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._~-".contains($0)) }
        }
        var host: Substring = ""
        var path = text[...]
        if let scheme = text.range(of: "://") {
            guard text[..<scheme.lowerBound].allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "+") }) else {
                return nil
            }
            let rest = text[scheme.upperBound...]
            let authority = rest.prefix { $0 != "/" }
            path = rest.dropFirst(authority.count)
            let parts = authority.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.count == 1 || word(parts[0]) else { return nil }
            host = parts[parts.count - 1]
            let hostAndPort = host.split(separator: ":", omittingEmptySubsequences: false)
            guard hostAndPort.count <= 2, host.isEmpty || word(hostAndPort[0]),
                hostAndPort.count == 1 || hostAndPort[1].allSatisfy({ $0.isASCII && $0.isNumber })
            else { return nil }
        } else if let at = text.firstIndex(of: "@"), let colon = text.firstIndex(of: ":"), at < colon {
            guard word(text[..<at]), word(text[text.index(after: at)..<colon]) else { return nil }
            host = text[text.index(after: at)..<colon]
            path = "/" + text[text.index(after: colon)...]
        }
        let segments = path.split(separator: "/")
        guard path.hasPrefix("/"), segments.allSatisfy({ word($0) && $0 != "." && $0 != ".." }) else { return nil }
        var canonical = String(host) + "/" + segments.joined(separator: "/")
        if canonical.hasSuffix(".git") { canonical.removeLast(4) }
        return canonical
    }

    /// The contents of the string literals of Swift source `text`, outside comments: `"…"` (escapes kept as
    /// written), `"""…"""`, and raw `#"…"#`; comments `//` and `/* */`, nested.
    static func stringLiterals(in text: String) -> [String] {
        let characters = Array(text.unicodeScalars)
        var literals: [String] = []
        var index = 0
        func starts(_ word: String, at position: Int) -> Bool {
            let scalars = Array(word.unicodeScalars)
            return position + scalars.count <= characters.count
                && Array(characters[position..<position + scalars.count]) == scalars
        }
        while index < characters.count {
            if starts("//", at: index) {
                while index < characters.count, characters[index] != "\n" { index += 1 }
            } else if starts("/*", at: index) {
                var depth = 0
                repeat {
                    if starts("/*", at: index) {
                        depth += 1
                        index += 2
                    } else if starts("*/", at: index) {
                        depth -= 1
                        index += 2
                    } else {
                        index += 1
                    }
                } while depth > 0 && index < characters.count
            } else if characters[index] == "\"" || starts("#\"", at: index) {
                let hashes = characters[index] == "#" ? "#" : ""
                let open = starts(hashes + "\"\"\"", at: index) ? hashes + "\"\"\"" : hashes + "\""
                let close = String(open.reversed())
                index += open.unicodeScalars.count
                var literal = String.UnicodeScalarView()
                while index < characters.count, !starts(close, at: index) {
                    if hashes.isEmpty, characters[index] == "\\", index + 1 < characters.count {
                        literal.append(characters[index])
                        index += 1
                    }
                    literal.append(characters[index])
                    index += 1
                }
                index += close.unicodeScalars.count
                literals.append(String(literal))
            } else {
                index += 1
            }
        }
        return literals
    }
}
