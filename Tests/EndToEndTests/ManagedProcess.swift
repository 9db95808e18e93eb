import Foundation

/// A child process with its output in a log file, stopped at the end of the test.
final class ManagedProcess: @unchecked Sendable {
    let process = Process()
    let logFile: URL

    init(
        _ executable: String,
        _ arguments: [String],
        environment: [String: String] = [:],
        logFile: URL,
        standardInput: FileHandle? = nil
    ) throws {
        self.logFile = logFile
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let log = try FileHandle(forWritingTo: logFile)
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("STOREGATE_") }
        merged.merge(environment) { _, new in new }
        process.environment = merged
        process.standardOutput = log
        process.standardError = log
        process.standardInput = standardInput ?? FileHandle.nullDevice
        try process.run()
    }

    var pid: Int32 { process.processIdentifier }
    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    func signal(_ number: Int32) { kill(pid, number) }

    /// The exit status once the process has ended, or nil if it still runs after `limit`.
    @discardableResult
    func waitForExit(within limit: Duration) -> Int32? {
        let deadline = ContinuousClock.now.advanced(by: limit)
        while process.isRunning, ContinuousClock.now < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// Asks the process to stop, then insists.
    func stop() {
        guard process.isRunning else { return }
        signal(SIGTERM)
        if waitForExit(within: .seconds(5)) == nil {
            signal(SIGKILL)
            waitForExit(within: .seconds(5))
        }
    }

    /// Waits until `condition` holds, checking every 50 ms for at most `limit`.
    static func poll(for limit: Duration, _ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now.advanced(by: limit)
        repeat {
            if condition() { return true }
            usleep(50_000)
        } while ContinuousClock.now < deadline
        return condition()
    }
}
