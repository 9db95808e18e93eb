import Logging
import Synchronization

/// The process's log level, which a config load sets (`log.level`) and every ``LineLogHandler`` reads on
/// each call, so a reload changes what loggers made before it print; and where their lines go.
package final class LogControl: Sendable, CustomReflectable {
    private let rawLevel: Atomic<Int>
    /// Where every ``LineLogHandler`` sharing this control writes (`log.flush_ms` sets how).
    package let output: LogOutput

    /// Nothing: see ``LineLogHandler/customMirror``.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    package init(level: Logger.Level = .info, output: LogOutput = LogOutput()) {
        rawLevel = Atomic(Self.levels.firstIndex(of: level)!)
        self.output = output
    }

    /// The least severe level printed.
    package var level: Logger.Level {
        get { Self.levels[rawLevel.load(ordering: .relaxed)] }
        set { rawLevel.store(Self.levels.firstIndex(of: newValue)!, ordering: .relaxed) }
    }

    /// Every level, so one is stored as its index (`allCases` holds them all).
    private static let levels = Logger.Level.allCases
}
