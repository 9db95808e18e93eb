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
        var line = LogLine(level: event.level, message: event.message.description)
        for (key, value) in LogLine.fields(metadata, metadataProvider?.get(), event.metadata) {
            line.add(key, value.description)
        }
        line.write()
    }

    /// Whether an event written by ``writeLine(level:message:fields:)`` would carry exactly the fields given:
    /// this handler adds no metadata of its own.
    var addsNoFields: Bool { metadata.isEmpty && metadataProvider == nil }

    /// Writes a line with `fields` already in key order, skipping swift-log's metadata dictionaries: the
    /// request log's path, which runs for every request. Same bytes as ``log(event:)`` for the same fields.
    func writeLine(level: Logger.Level, message: String, fields: (inout LogLine) -> Void) {
        guard level >= logLevel else { return }
        var line = LogLine(level: level, message: message)
        fields(&line)
        line.write()
    }
}
