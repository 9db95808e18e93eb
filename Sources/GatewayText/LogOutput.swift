import Foundation
import GatewayConcurrency

#if canImport(Glibc)
    import Glibc
#endif

/// Where the process's log lines go: a file descriptor (standard error), each line whole and all of them in
/// the order they were made.
///
/// By default every line is written as it is made. A serving process gathers its request lines instead
/// (``gather(every:)``, `log.flush_ms`): they are copied into a buffer that a thread of its own writes out in
/// one `write` a few milliseconds after the first of them, so a busy gateway makes one system call per batch
/// rather than one per request (writing a short line to a file cost a catalog answer more CPU than building
/// it). Any other line is written at once, after everything gathered before it, so a warning never overtakes
/// the requests that came first. Lines gathered when the process dies abruptly (SIGKILL, a crash) are lost:
/// at most one interval of request lines.
package final class LogOutput: @unchecked Sendable, CustomReflectable {
    // Heap-allocated: pthread primitives must not move while in use. `mutex` guards every field below, and
    // writes happen under it too, which is what keeps lines in order.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let lineGathered: UnsafeMutablePointer<pthread_cond_t>
    private let pending: UnsafeMutablePointer<UInt8>
    private var pendingCount = 0
    private var interval: Duration?
    private var flusherRunning = false
    private let descriptor: Int32

    /// A batch this large is written by the request that fills it, without waiting for the interval.
    static let batchLimit = 64 << 10

    /// Lines written to `descriptor` (standard error unless a test says otherwise).
    /// Nothing: its buffer holds every route's request lines until they are written.
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    package init(descriptor: Int32 = 2) {
        self.descriptor = descriptor
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        lineGathered = .allocate(capacity: 1)
        lineGathered.initialize(to: pthread_cond_t())
        pthread_cond_init(lineGathered, nil)
        pending = .allocate(capacity: Self.batchLimit)
    }

    deinit {
        pthread_cond_destroy(lineGathered)
        pthread_mutex_destroy(mutex)
        lineGathered.deallocate()
        mutex.deallocate()
        pending.deallocate()
    }

    /// From now on, gathered lines wait up to `interval` to be written together; nil writes each at once
    /// (after what was gathered, which is written now) and lets the writing thread end.
    package func gather(every interval: Duration?) {
        locked {
            self.interval = interval.flatMap { $0 > .zero ? $0 : nil }
            if self.interval == nil {
                writePending()
            } else if !flusherRunning {
                flusherRunning = true
                Thread.detachNewThread { [self] in runFlusher() }
            }
            pthread_cond_signal(lineGathered)
        }
    }

    /// Writes `line`, or copies it into the batch when `gathered` and gathering is on.
    package func write(_ line: UnsafeBufferPointer<UInt8>, gathered: Bool) {
        locked {
            guard gathered, interval != nil else {
                writePending()
                return Self.writeAll(line, to: descriptor)
            }
            if pendingCount + line.count > Self.batchLimit {
                writePending()
                guard line.count <= Self.batchLimit else { return Self.writeAll(line, to: descriptor) }
            }
            if pendingCount == 0 { pthread_cond_signal(lineGathered) }
            (pending + pendingCount).update(from: line.baseAddress!, count: line.count)
            pendingCount += line.count
        }
    }

    /// The gathering thread: asleep until a line is gathered, then writes the batch one interval later.
    private func runFlusher() {
        locked {
            while let interval {
                guard pendingCount > 0 else {
                    pthread_cond_wait(lineGathered, mutex)
                    continue
                }
                pthread_mutex_unlock(mutex)
                Thread.sleep(forTimeInterval: Double(interval.nanoseconds) / 1e9)
                pthread_mutex_lock(mutex)
                writePending()
            }
            flusherRunning = false
        }
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }

    /// Caller holds the lock.
    private func writePending() {
        guard pendingCount > 0 else { return }
        Self.writeAll(UnsafeBufferPointer(start: pending, count: pendingCount), to: descriptor)
        pendingCount = 0
    }

    private static func writeAll(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
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
