import Logging
import Testing

@testable import GatewayCore

@Suite struct LoggingTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("/v1/verify", "/v1/verify"),
        ("", #""""#),
        ("two words", #""two words""#),
        ("a=b", #""a=b""#),
        (#"say "hi""#, #""say \"hi\"""#),
        ("line\nbreak", #""line\nbreak""#),
        ("back\\slash", #""back\\slash""#),
        ("bell\u{07}", #""bell\u0007""#),
    ])
    func valuesNeverStartANewFieldOrLine(_ value: String, _ rendered: String) {
        var line: [UInt8] = []
        LineLogHandler.appendQuoted(value, to: &line)
        #expect(String(decoding: line, as: UTF8.self) == rendered)
    }

    @Test func timestampsAreUTCWithMilliseconds() {
        var line: [UInt8] = []
        LineLogHandler.appendTimestamp(to: &line)
        let stamp = String(decoding: line, as: UTF8.self)
        #expect(stamp.count == 24, "\(stamp)")
        #expect(stamp.hasPrefix("20"))
        #expect(stamp.hasSuffix("Z") && stamp.dropFirst(10).hasPrefix("T"))
    }

    @Test func theSharedLevelAppliesUnlessALoggerSetsItsOwn() {
        let control = LogControl(level: .info)
        var handler = LineLogHandler(control: control)
        #expect(handler.logLevel == .info)
        control.level = .warning
        #expect(handler.logLevel == .warning)
        handler.logLevel = .debug
        control.level = .error
        #expect(handler.logLevel == .debug)
    }

    static func settings(_ yaml: String) throws -> (LogSettings, [ConfigProblem]) {
        let reader = ConfigReader(
            document: try ConfigValue.parse(yaml: yaml, source: "test"), baseDirectory: "/tmp", environment: [:])
        return (LogSettings(reader.scoped("log")), reader.problems)
    }

    @Test func logSettingsHaveDefaultsAndNameBadLevels() throws {
        let (defaults, none) = try Self.settings("log: {}\n")
        #expect(none.isEmpty)
        #expect(defaults == LogSettings(level: .info, requests: true, slowRequest: .seconds(1)))
        let (quiet, _) = try Self.settings("log: { level: warning, requests: false, slow_request_ms: 0 }\n")
        #expect(quiet == LogSettings(level: .warning, requests: false, slowRequest: nil))
        let (_, problems) = try Self.settings("log: { level: loud }\n")
        #expect(problems.map(\.keyPath) == ["log.level"])
    }
}
