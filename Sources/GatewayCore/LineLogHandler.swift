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
        if let provided = metadataProvider?.get() { fields.merge(provided) { _, new in new } }
        if let extra = event.metadata { fields.merge(extra) { _, new in new } }
        var line = "ts=\(Self.timestamp()) level=\(event.level) msg=\(Self.quoted(event.message.description))"
        for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(Self.quoted(value.description))"
        }
        line += "\n"
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { raw in
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

    /// The value as is when it is one plain word, else in double quotes with `"`, `\` and control
    /// characters escaped, so a value can never start a new line or a new field.
    static func quoted(_ value: String) -> String {
        let plain =
            !value.isEmpty
            && value.unicodeScalars.allSatisfy {
                $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0 != "\\" && $0.value != 0x7F
            }
        guard !plain else { return value }
        var escaped = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                escaped += String(format: "\\u%04x", scalar.value)
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }

    /// UTC with milliseconds, formatted by hand: this runs once per request.
    static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        var parts = tm()
        var seconds = now.tv_sec
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        let millis = Int32(now.tv_nsec / 1_000_000)
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(millis, 3))Z"
    }
}
