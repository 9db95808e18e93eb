import ConfigYAML
import Foundation
import GatewayHandlerAPI
import GatewayText
import Logging
import Testing

@testable import GatewayServer

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
        var line = LogLine(level: .info, message: "m")
        line.add("key", value)
        #expect(line.text.hasSuffix(" level=info msg=m key=\(rendered)"), "\(line.text)")
    }

    /// Every byte at every position of values checked a word at a time (lengths 8 to 17) is quoted exactly
    /// when the byte rule says so: no space or control character, no `"`, `=`, `\` or DEL.
    @Test(arguments: [8, 11, 16, 17])
    func wordChecksQuoteExactlyWhatTheByteRuleQuotes(_ length: Int) {
        for position in 0..<length {
            for byte in UInt8(0)...UInt8(0x7F) {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                bytes[position] = byte
                let value = String(decoding: bytes, as: UTF8.self)
                var line = LogLine(level: .info, message: "m")
                line.add("key", value)
                let plain = byte > 0x20 && byte != 0x22 && byte != 0x3D && byte != 0x5C && byte != 0x7F
                #expect(line.text.hasSuffix(" key=\(value)") == plain, "byte \(byte) at \(position) of \(length)")
            }
        }
        var line = LogLine(level: .info, message: "m")
        line.add("key", "caf\u{E9}-\u{1F4DA}-r\u{E9}sum\u{E9}")
        #expect(line.text.hasSuffix(" key=caf\u{E9}-\u{1F4DA}-r\u{E9}sum\u{E9}"), "UTF-8 letters stay plain")
    }

    @Test(arguments: [0, 951_782_400, 1_709_164_799, 1_764_547_200, 1_795_000_123, 4_107_542_400, -86_401])
    func timestampsAreUTCWithMillisecondsAsGmtimeSaysThem(_ seconds: Int) {
        let line = [UInt8](unsafeUninitializedCapacity: 24) { stamp, count in
            UTCTimestamp.write(seconds: seconds, milliseconds: 7, at: stamp.baseAddress!)
            count = 24
        }
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        let expected = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.007Z", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
            parts.tm_hour, parts.tm_min, parts.tm_sec)
        #expect(String(decoding: line, as: UTF8.self) == expected)
    }

    /// The digits of the last day and second are kept: lines in the same second, the next second, across
    /// midnight and back again still say what gmtime says.
    @Test func timestampsInARowReuseOnlyWhatIsStillTrue() {
        let midnight = 1_795_046_400
        let seconds = [
            midnight - 1, midnight - 1, midnight, midnight + 59, midnight + 60, midnight - 1, midnight + 3599,
            midnight + 3600, 0, midnight, -1, midnight + 86_399, midnight + 86_400,
        ]
        for (index, second) in seconds.enumerated() {
            let milliseconds = index * 91 % 1000
            let written = [UInt8](unsafeUninitializedCapacity: 24) { stamp, count in
                count = UTCTimestamp.write(seconds: second, milliseconds: milliseconds, at: stamp.baseAddress!)
            }
            var time = second
            var parts = tm()
            gmtime_r(&time, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1,
                parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec, milliseconds)
            #expect(String(decoding: written, as: UTF8.self) == expected, "second \(second)")
        }
    }

    /// Also a line that outgrows its scratch space (16 bytes here, 512 on the request path) and moves to
    /// the heap on the way.
    @Test func anAnswersFieldsJoinTheRequestLineInKeyOrderAndTheRequestsOwnWin() {
        let line = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { scratch in
            var merged = MergedLineFields(
                LogLine(level: .info, plainMessage: "request", scratch: scratch),
                answerFields: ["zeta": "last", "environment": "Production", "status": "999", "a b": "first"])
            merged.add(plain: "duration_ms", 1234, fractionDigits: 3)
            merged.add(plain: "method", "GET")
            merged.add(plain: "status", 200, fractionDigits: 0)
            return merged.finished().text
        }
        #expect(
            line.hasSuffix(
                #" level=info msg=request "a b"=first duration_ms=1.234 environment=Production method=GET status=200 zeta=last"#
            ), "\(line)")
    }

    @Test func metadataFromSeveralSourcesIsOneListInKeyOrderWithTheLaterValue() {
        let fields = LogLine.fields(["b": "handler", "a": "handler"], nil, ["b": "event", "c": "event"])
        #expect(fields.map(\.key) == ["a", "b", "c"])
        #expect(fields.map(\.value.description) == ["handler", "event", "event"])
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
        let reader = try ConfigReader(yaml: yaml, source: "test", baseDirectory: "/tmp", environment: [:])
        return (LogSettings(reader.scoped("log")), reader.problems)
    }

    @Test func logSettingsHaveDefaultsAndNameBadLevels() throws {
        let (defaults, none) = try Self.settings("log: {}\n")
        #expect(none.isEmpty)
        #expect(
            defaults
                == LogSettings(level: .info, requests: true, slowRequest: .seconds(1), flushInterval: .milliseconds(5)))
        let (quiet, _) = try Self.settings(
            "log: { level: warning, requests: false, slow_request_ms: 0, flush_ms: 0 }\n")
        #expect(quiet == LogSettings(level: .warning, requests: false, slowRequest: nil, flushInterval: nil))
        let (_, problems) = try Self.settings("log: { level: loud, flush_ms: 60001 }\n")
        #expect(problems.map(\.keyPath) == ["log.level", "log.flush_ms"])
    }
}
