import Foundation

/// What a tool run said: whether it succeeded, and its output and errors together.
///
/// The tool is waited for on a thread of its own: the attacks type-check in parallel, and a test blocking in
/// `waitUntilExit` holds one of the Swift pool's threads (two on a two-core machine). Holding both stalled
/// every other test of the run for a minute, long enough for a test's 60-second Retry-After to pass unseen.
struct ToolRun: Sendable {
    let succeeded: Bool
    let output: String

    /// Runs `executable` with `arguments`.
    init(_ executable: URL, _ arguments: [String]) async throws {
        self = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try ToolRun(blocking: executable, arguments) })
            }
        }
    }

    private init(blocking executable: URL, _ arguments: [String]) throws {
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

    /// Writes `source` to a file of its own (named `name` in a folder of its own, if given), runs `executable`
    /// with `arguments` and the file's path last, and removes the file.
    init(_ executable: URL, _ arguments: [String], on source: String, named name: String? = nil) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name ?? "Plugin.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        try await self.init(executable, arguments + [file.path])
    }
}
