import Logging

/// Writes each event as one logfmt line to its ``LogControl``'s output (standard error), whole, so lines from
/// many workers never interleave and journald or any log shipper can split them into fields:
///
///     ts=2026-11-22T21:40:00.123Z level=info msg=request request-id=6f1c route=/v1/verify status=200
///
/// The level comes from a shared ``LogControl`` unless a logger sets its own.
package struct LineLogHandler: LogHandler, CustomReflectable {
    package var metadata: Logger.Metadata = [:]
    package var metadataProvider: Logger.MetadataProvider?
    private let control: LogControl
    private var ownLevel: Logger.Level?

    package init(control: LogControl) {
        self.control = control
    }

    /// Nothing: every module's logger holds one, and its control leads to the process's log output, where every
    /// route's request lines wait to be written (a twenty-fourth reviewer's read them there by `Mirror`).
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    package var logLevel: Logger.Level {
        get { ownLevel ?? control.level }
        set { ownLevel = newValue }
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var line = LogLine(level: event.level, message: event.message.description)
        for (key, value) in LogLine.fields(metadata, metadataProvider?.get(), event.metadata) {
            line.add(key, value.description)
        }
        line.write(to: control.output)
    }

    /// Whether an event written through ``output`` would carry exactly the fields the request line gives it:
    /// this handler adds no metadata of its own.
    package var addsNoFields: Bool { metadata.isEmpty && metadataProvider == nil }

    /// Where this handler writes; the request line is written there directly.
    package var output: LogOutput { control.output }
}
