import Foundation

/// What a tool run said: whether it succeeded, and its output and errors together.
struct ToolRun {
    let succeeded: Bool
    let output: String

    /// Runs `executable` with `arguments`.
    init(_ executable: URL, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        succeeded = process.terminationStatus == 0
        self.output = String(decoding: output, as: UTF8.self)
    }

    /// Writes `source` to a file of its own, runs `executable` with `arguments` and the file's path last, and
    /// removes the file.
    init(_ executable: URL, _ arguments: [String], on source: String) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try self.init(executable, arguments + [file.path])
    }
}
