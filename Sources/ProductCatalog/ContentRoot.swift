import Crypto
import Foundation

/// The folder product files live in. Resolves a catalog's relative path to a regular file inside it,
/// refusing absolute paths, `..` and symlinks that lead out of the folder.
package struct ContentRoot: Sendable {
    /// The folder as configured.
    package let path: String
    /// The folder with symlinks resolved, or nil when it does not exist.
    package let resolved: String?

    package init(path: String) {
        self.path = path
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        self.resolved = exists ? Self.realPath(path) : nil
    }

    /// Why a content path was refused.
    package struct Problem: Error, Sendable {
        package let message: String
    }

    /// The absolute, symlink-free path of `relative` when it names a regular file inside the root.
    package func file(_ relative: String) -> Result<String, Problem> {
        guard let resolved else { return .failure(Problem(message: "the content root does not exist")) }
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
        guard !relative.isEmpty, !relative.hasPrefix("/"), !relative.utf8.contains(0),
            !parts.contains(where: { $0 == ".." || $0 == "." || $0.isEmpty })
        else {
            return .failure(Problem(message: "\"\(relative)\" must be a plain relative path under content.root"))
        }
        guard let real = Self.realPath(resolved + "/" + relative) else {
            return .failure(Problem(message: "file \(relative) not found under content.root (\(path))"))
        }
        guard real.hasPrefix(resolved + "/") else {
            return .failure(Problem(message: "\(relative) leads out of content.root through a symlink"))
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isFolder), !isFolder.boolValue else {
            return .failure(Problem(message: "\(relative) is not a regular file"))
        }
        return .success(real)
    }

    /// The size and SHA-256 of the file at `relative`, read in bounded chunks.
    package func measure(_ relative: String) -> Result<(size: Int, sha256: String), Problem> {
        file(relative).flatMap { real in
            guard let handle = FileHandle(forReadingAtPath: real) else {
                return .failure(Problem(message: "\(relative) is not readable"))
            }
            defer { try? handle.close() }
            var hasher = SHA256()
            var size = 0
            do {
                while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                    hasher.update(data: chunk)
                    size += chunk.count
                }
            } catch {
                return .failure(Problem(message: "\(relative) could not be read: \(error.localizedDescription)"))
            }
            let hex = hasher.finalize().map { String(format: "%02x", $0) }.joined()
            return .success((size, hex))
        }
    }

    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }
}
