import Foundation

/// Runs Python with Google's client libraries (google-auth), the peer our Google side is checked against.
public enum Python {
    public struct Failed: Error, CustomStringConvertible {
        public let description: String
    }

    /// What `script` printed, run on a thread of its own; throws with its error output when it fails
    /// (google-auth missing: `python3 -m pip install google-auth requests`).
    public static func run(_ script: String, arguments: [String]) async throws -> String {
        try await OnThread.value { try runBlocking(script, arguments: arguments) }
    }

    private static func runBlocking(_ script: String, arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failed(description: "python3 failed: " + String(decoding: complained, as: UTF8.self))
        }
        return String(decoding: printed, as: UTF8.self)
    }
}
