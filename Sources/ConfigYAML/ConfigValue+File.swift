import Foundation
import GatewayCore

extension ConfigValue {
    /// The YAML document in `file`. Throws ``ConfigProblems`` naming the file and, in words, why it cannot be
    /// read (there is no such file or folder, it is a folder, this user may not read it, it is not UTF-8 text)
    /// or parsed. `what` names the file for people: "the config file", "the catalog file".
    package static func read(file: String, describedAs what: String) throws(ConfigProblems) -> ConfigValue {
        let problem = { (why: String) in
            ConfigProblems([ConfigProblem(keyPath: file, message: "cannot read \(what): \(why)")])
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else {
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent().path
            throw problem(
                FileManager.default.fileExists(atPath: folder)
                    ? "there is no such file" : "there is no folder \(folder)")
        }
        guard !isFolder.boolValue else { throw problem("it is a folder, not a file") }
        guard FileManager.default.isReadableFile(atPath: file), let data = FileManager.default.contents(atPath: file)
        else {
            throw problem("this user (\(ProcessInfo.processInfo.userName), uid \(getuid())) may not read it")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw problem("it is not UTF-8 text") }
        return try parse(yaml: text, source: file)
    }
}
