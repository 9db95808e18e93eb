import Foundation
import Logging

/// Writes each event as one logfmt line on standard error, in a single `write`, so lines from many
/// workers never interleave and journald or any log shipper can split them into fields:
///
///     ts=2026-11-22T21:40:00.123Z level=info msg=request request-id=6f1c route=/v1/verify status=200
///
/// The level comes from a shared ``LogControl`` unless a logger sets its own.
public struct LineLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let control: LogControl
    private var ownLevel: Logger.Level?

    public init(control: LogControl) {
        self.control = control
    }

    public var logLevel: Logger.Level {
        get { ownLevel ?? control.level }
        set { ownLevel = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var fields = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { fields.merge(provided) { _, new in new } }
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        // Built as bytes, not by string interpolation: with request lines on this runs for every request.
        var line: [UInt8] = []
        line.reserveCapacity(256)
        line.append(contentsOf: "ts=".utf8)
        Self.appendTimestamp(to: &line)
        line.append(contentsOf: " level=".utf8)
        line.append(contentsOf: event.level.rawValue.utf8)
        line.append(contentsOf: " msg=".utf8)
        Self.appendQuoted(event.message.description, to: &line)
        for key in fields.keys.sorted() {
            line.append(0x20)
            Self.appendQuoted(key, to: &line)
            line.append(0x3D)
            Self.appendQuoted(fields[key]!.description, to: &line)
        }
        line.append(0x0A)
        line.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(2, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR {
                    continue
                } else {
                    return  // nowhere to report a failure to log
                }
            }
        }
    }

    /// Appends the value as is when it is one plain word, else in double quotes with `"`, `\` and control
    /// characters escaped, so a value can never start a new line or a new field.
    static func appendQuoted(_ value: String, to line: inout [UInt8]) {
        let bytes = value.utf8
        let plain =
            !bytes.isEmpty && bytes.allSatisfy { $0 > 0x20 && $0 != 0x22 && $0 != 0x3D && $0 != 0x5C && $0 != 0x7F }
        guard !plain else {
            line.append(contentsOf: bytes)
            return
        }
        line.append(0x22)
        for byte in bytes {
            switch byte {
            case 0x22, 0x5C: line.append(contentsOf: [0x5C, byte])
            case 0x0A: line.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: line.append(contentsOf: [0x5C, 0x72])
            case 0x09: line.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20, 0x7F:
                line.append(contentsOf: "\\u00".utf8)
                line.append(contentsOf: [hexDigit(byte >> 4), hexDigit(byte & 0xF)])
            default: line.append(byte)
            }
        }
        line.append(0x22)
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 0x30 + value : 0x61 + value - 10 }

    /// UTC with milliseconds (`2026-11-22T21:40:00.123Z`).
    static func appendTimestamp(to line: inout [UInt8]) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func digits(_ value: Int32, _ count: Int) {
            var divisor: Int32 = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                line.append(0x30 + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(parts.tm_year + 1900, 4)
        line.append(0x2D)
        digits(parts.tm_mon + 1, 2)
        line.append(0x2D)
        digits(parts.tm_mday, 2)
        line.append(0x54)
        digits(parts.tm_hour, 2)
        line.append(0x3A)
        digits(parts.tm_min, 2)
        line.append(0x3A)
        digits(parts.tm_sec, 2)
        line.append(0x2E)
        digits(Int32(now.tv_nsec / 1_000_000), 3)
        line.append(0x5A)
    }
}
