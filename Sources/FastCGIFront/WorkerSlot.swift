import CFastCGI
import GatewayCore
import GatewayServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One worker thread's `FCGX_Request` and where the worker is with it. The mutex decides who may touch the
/// request's streams: the worker, or the watchdog answering 504 when a handler overruns its time limit.
final class WorkerSlot: @unchecked Sendable {
    enum Phase {
        /// Waiting for a connection (`epoll_wait`, then `FCGX_Accept_r`) or a kept connection's next request.
        case accepting
        /// Reading parameters and body; never sent the wake signal.
        case reading
        case handling(Exchange)
        /// The worker is writing its own answer.
        case writing
        /// The watchdog answered; the worker drops its answer when the handler returns.
        case timedOut
        case exited
    }

    /// Heap-allocated once: libfcgi's streams keep a pointer to it. Touched only by the phase's owner.
    let request: UnsafeMutablePointer<FCGX_Request>
    /// This worker's share of the gateway's counters.
    let counters: WorkerCounters
    /// This worker's request metrics; only its thread records through it.
    let recorder: RequestRecorder
    private let phase = Mutex<Phase>(.accepting)
    private let threadId = Mutex<pthread_t?>(nil)

    init(listening descriptor: Int32, counters: WorkerCounters, recorder: RequestRecorder) {
        self.counters = counters
        self.recorder = recorder
        request = .allocate(capacity: 1)
        FCGX_InitRequest(request, descriptor, FCGI_FAIL_ACCEPT_ON_INTR)
    }

    func attach(thread: pthread_t) { threadId.withLock { $0 = thread } }

    func set(_ next: Phase) { phase.withLock { $0 = next } }

    /// Moves from handling to writing; false when the watchdog has already answered.
    func beginWriting() -> Bool {
        phase.withLock { phase in
            guard case .handling = phase else { return false }
            phase = .writing
            return true
        }
    }

    /// If the request in hand has run past its deadline, runs `answer` with it while holding the slot, so the
    /// worker cannot write at the same time, and marks it answered.
    func answerIfOverdue(now: ContinuousClock.Instant, _ answer: (Exchange) -> Void) {
        phase.withLock { phase in
            guard case .handling(let exchange) = phase, exchange.context.deadline <= now else { return }
            answer(exchange)
            phase = .timedOut
        }
    }

    /// Interrupts the worker's wait for a connection or a kept connection's next request, if it is idle in one.
    func wakeIfAccepting() {
        phase.withLock { phase in
            guard case .accepting = phase, let thread = threadId.withLock({ $0 }) else { return }
            pthread_kill(thread, WakeSignal.number)
        }
    }

    var hasExited: Bool {
        phase.withLock { if case .exited = $0 { true } else { false } }
    }
}
