import Foundation

/// A program run to its end: git, swift, the built binary.
enum Subprocess {
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `program` (looked up on the PATH) with `arguments`, its output and errors captured.
    static func run(_ program: String, _ arguments: [String], in folder: URL? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        if let folder { process.currentDirectoryURL = folder }
        let output = Pipe()
        // Errors go to a file, output to a pipe read here: a program that fills one pipe while the other is read
        // would wait forever.
        let errorFile = FileManager.default.temporaryDirectory.appending(path: "storegate-build-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw BuildProblem("cannot write the temporary file \(errorFile.path)")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        defer { try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = FileManager.default.contents(atPath: errorFile.path) ?? Data()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs `program` with `arguments`, its output and errors going where this tool's go (a build's progress and
    /// diagnostics, as the person running it expects to see them); the exit status.
    static func stream(_ program: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}
