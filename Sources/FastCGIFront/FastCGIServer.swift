import CFastCGI
import GatewayCore
import GatewayServer
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The libfcgi transport: a pool of OS threads, each with its own `FCGX_Request`, accepting on one socket (the
/// worker that went idle last accepts next: ``ConnectionWait``), plus a watchdog that answers 504 for requests
/// past their time limit.
///
/// Signals are the owner's business: block them in every thread before ``start()`` and call ``reload(_:)``
/// and ``stop(grace:)`` from the thread that waits for them.
package final class FastCGIServer: Sendable {
    let socket: ListeningSocket
    let slots: [WorkerSlot]
    let runtime: GatewayRuntime
    let current: Mutex<GatewayApplication>
    /// Bumped by every reload, so workers refresh their copy of ``application`` only when it changed.
    let generation = Atomic<Int>(0)
    let stopping = Atomic<Bool>(false)
    let liveWorkers = Atomic<Int>(0)
    let lastSaturationWarning = Atomic<Int64>(-1)

    /// A server for `application` on `socket`, with `application.server.workers` workers.
    package init(socket: ListeningSocket, application: GatewayApplication, runtime: GatewayRuntime) {
        self.socket = socket
        self.runtime = runtime
        self.current = Mutex(application)
        self.slots = (0..<application.server.workers).map { _ in
            WorkerSlot(
                listening: socket.descriptor, counters: runtime.stats.makeWorkerCounters(),
                recorder: runtime.metrics.makeRecorder())
        }
    }

    /// Initialises libfcgi, which reads `FCGI_WEB_SERVER_ADDRS` (the web servers it accepts) once, here: `serve`
    /// calls it before any handler module's code runs, which could change the variable (a twenty-first
    /// reviewer's `name` getter unset it, and any client could then speak FastCGI to a TCP port).
    package static func initialiseLibrary() throws(FrontError) {
        guard FCGX_Init() == 0 else { throw FrontError("libfcgi failed to initialise") }
    }

    /// Starts the workers and the watchdog.
    package func start() throws(FrontError) {
        WakeSignal.install()
        try Self.initialiseLibrary()
        try socket.acceptWithoutBlocking()
        let connections = try ConnectionWait(listening: socket.descriptor)
        for slot in slots {
            liveWorkers.add(1, ordering: .relaxed)
            let thread = try OSThread.spawn { [self] in runWorker(slot, waitingIn: connections) }
            slot.attach(thread: thread)
        }
        _ = try OSThread.spawn(stackSize: 256 << 10) { [self] in runWatchdog(rechecking: connections) }
        runtime.logger.info(
            "storegate serving",
            metadata: ["listen": "\(socket.address)", "workers": "\(slots.count)"]
        )
    }

    /// The configuration requests are served with now.
    package var application: GatewayApplication { current.withLock { $0 } }

    /// Serves new requests with `application`; requests in flight finish with the one they started on.
    /// `server.listen` and `server.workers` keep their first values until a restart.
    package func reload(_ application: GatewayApplication) {
        let previous = current.withLock { current in
            defer { current = application }
            return current.server
        }
        generation.add(1, ordering: .releasing)
        if previous.listen != application.server.listen || previous.workers != application.server.workers {
            runtime.logger.warning("server.listen and server.workers take effect only after a restart")
        }
    }

    /// Stops accepting, lets requests in flight finish for up to `grace`, then closes the socket.
    /// Returns false when some were still running at the end of the grace period.
    package func stop(grace: Duration) -> Bool {
        // Not `FCGX_ShutdownPending()`: with it, libfcgi's accept loop, after closing a connection that never
        // became readable, takes the descriptor it just closed for a new connection and closes it again, and
        // again, spinning and closing whatever reuses the number. Workers stop on `stopping` and the wake signal;
        // the socket does not block, so no accept waits for a connection.
        stopping.store(true, ordering: .sequentiallyConsistent)
        let deadline = ContinuousClock.now.advanced(by: grace)
        while liveWorkers.load(ordering: .sequentiallyConsistent) > 0, ContinuousClock.now < deadline {
            // Repeated: a wake that lands just before a worker blocks is lost, the next one is not.
            for slot in slots { slot.wakeIfAccepting() }
            usleep(20_000)
        }
        socket.close()
        return liveWorkers.load(ordering: .sequentiallyConsistent) == 0
    }
}
