import Foundation

/// One `--with`: a module package at a git URL and a version (a tag, a branch or a commit), or in a local folder.
struct ModuleSpec {
    enum Place {
        case git(url: String, version: String)
        case folder(URL)
    }

    let place: Place

    /// `https://host/you/coupons@1.2.0`, `git@host:you/coupons.git@main`, `../reader`, `/abs/reader`. A local
    /// folder that exists is a folder even with an `@` in its name; otherwise the version follows the last `@`.
    init(parsing text: String) throws {
        let folder = URL(fileURLWithPath: (text as NSString).expandingTildeInPath).standardizedFileURL
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue {
            place = .folder(folder.resolvingSymlinksInPath())
            return
        }
        guard let at = text.lastIndex(of: "@"), text[text.index(after: at)...].allSatisfy({ $0 != "/" && $0 != ":" }),
            !text[..<at].isEmpty, text.contains("/") || text.contains(":")
        else {
            throw BuildProblem(
                "--with \(text): no such folder, and not <git URL>@<version> (a tag, branch or commit after the last @)"
            )
        }
        let version = String(text[text.index(after: at)...])
        guard !version.isEmpty else { throw BuildProblem("--with \(text): the version after @ is empty") }
        place = .git(url: String(text[..<at]), version: version)
    }

    /// Where the module came from, as `storegate version` shows it: a git package with the commit its clone in
    /// `folder` is at; a folder as it is (its files may differ from any commit).
    func origin(of folder: URL) -> String {
        switch place {
        case .git(let url, let version):
            let commit = try? Subprocess.run("git", ["-C", folder.path, "rev-parse", "HEAD"])
            let head = commit.flatMap { $0.status == 0 ? $0.output.prefix(12) : nil }
            return "\(url)@\(version)" + (head.map { " (commit \($0))" } ?? "")
        case .folder(let local): return "\(local.path) (local folder)"
        }
    }

    /// The package's folder: a local folder as it is, a git package cloned at its version into a folder of
    /// `modules` named like its repository (SwiftPM names a package after its folder).
    func fetched(into modules: URL) throws -> URL {
        switch place {
        case .folder(let folder):
            return folder
        case .git(let url, let version):
            let name = url.split(whereSeparator: { $0 == "/" || $0 == ":" }).last.map(String.init) ?? "module"
            let scratch = modules.appending(path: name.hasSuffix(".git") ? String(name.dropLast(4)) : name)
            try? FileManager.default.removeItem(at: scratch)
            try FileManager.default.createDirectory(
                at: scratch.deletingLastPathComponent(), withIntermediateDirectories: true)
            log("fetching \(url) at \(version)")
            let clone = try Subprocess.run("git", ["clone", "--quiet", url, scratch.path])
            guard clone.status == 0 else { throw BuildProblem("cannot clone \(url):\n\(clone.errors)") }
            let checkout = try Subprocess.run(
                "git", ["-C", scratch.path, "-c", "advice.detachedHead=false", "checkout", "--quiet", version])
            guard checkout.status == 0 else {
                throw BuildProblem("\(url) has no tag, branch or commit \(version):\n\(checkout.errors)")
            }
            return scratch
        }
    }
}
