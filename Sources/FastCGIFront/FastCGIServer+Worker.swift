import CFastCGI
import GatewayCore
import GatewayServer
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension FastCGIServer {
    func runWorker(_ slot: WorkerSlot, waitingIn wait: ConnectionWait) {
        WakeSignal.unblock()
        var cached = (generation: -1, application: application)
        while !stopping.load(ordering: .sequentiallyConsistent) {
            slot.set(.accepting)
            let status: Int32
            if slot.request.pointee.ipcFd < 0 {
                // No connection kept from its last request: wait with the other idle workers for one to arrive
                // and accept it (libfcgi then reads its first request). The socket does not block, so a worker
                // that another beat to the connection waits again.
                guard wait.wait() else { continue }
                status = FCGX_Accept_r(slot.request)
                if status == -EAGAIN { continue }
                // Not after a failure (EMFILE): each idle worker in turn would meet it at once; the watchdog
                // rechecks instead, ten times a second at most.
                if status >= 0 { wait.recheck() }
            } else {
                // The next request on the kept connection. Should the web server close it, libfcgi would go on to
                // accept without waiting its turn; with no socket to accept on it returns, and the worker waits.
                let listening = slot.request.pointee.listen_sock
                slot.request.pointee.listen_sock = -1
                let next = FCGX_Accept_r(slot.request)
                slot.request.pointee.listen_sock = listening
                guard next >= 0 else { continue }
                status = next
            }
            guard status >= 0 else {
                if status != -EINTR, !stopping.load(ordering: .sequentiallyConsistent) {
                    runtime.logger.error("accept failed", metadata: ["errno": "\(-status)"])
                    usleep(10_000)  // EMFILE and the like: do not spin
                }
                continue
            }
            slot.set(.reading)
            let latest = generation.load(ordering: .acquiring)
            if latest != cached.generation { cached = (latest, application) }
            serve(slot, with: cached.application)
        }
        FCGX_Free(slot.request, 1)
        slot.set(.exited)
        liveWorkers.subtract(1, ordering: .sequentiallyConsistent)
    }

    private func serve(_ slot: WorkerSlot, with application: GatewayApplication) {
        slot.counters.setBusy(true)
        defer { slot.counters.setBusy(false) }
        guard let parameters = slot.request.pointee.envp else {
            FCGX_Finish_r(slot.request)
            return
        }
        FastCGIChannel(slot: slot).serve(
            parameters: parameters, application: application, recorder: slot.recorder, counters: slot.counters)
    }

    /// PHP-FPM's "reached max_children", at most once every ten seconds. Only the watchdog calls it.
    private func warnSaturated() {
        let second = Int64(runtime.stats.startedAt.duration(to: .now).components.seconds)
        let last = lastSaturationWarning.load(ordering: .relaxed)
        guard last < 0 || second - last >= 10 else { return }
        lastSaturationWarning.store(second, ordering: .relaxed)
        runtime.logger.warning(
            "all workers are busy; new requests wait in the listen queue. Consider raising server.workers",
            metadata: ["workers": "\(slots.count)"]
        )
    }

    func runWatchdog(rechecking connections: ConnectionWait) {
        var wasSaturated = false
        let recorder = runtime.metrics.makeRecorder()
        while !stopping.load(ordering: .relaxed) {
            let limit = application.server.requestTimeout
            let interval = max(min(limit / 10, .milliseconds(100)), .milliseconds(10))
            usleep(UInt32(interval.components.attoseconds / 1_000_000_000_000))
            // A connection that arrived with another whose worker is held up reading it gets a worker all the same.
            connections.recheck()
            let saturated = runtime.stats.workersBusy == slots.count
            if saturated {
                if !wasSaturated { runtime.metrics.workersSaturated() }
                warnSaturated()
            }
            wasSaturated = saturated
            let now = ContinuousClock.now
            for slot in slots {
                slot.answerIfOverdue(now: now) { exchange in
                    let response = exchange.respond(failingWith: .timeout)
                    FastCGIChannel(slot: slot).send(response, for: exchange)
                    exchange.finished(response, recorder: recorder, counters: slot.counters)
                    exchange.context.logger.warning(
                        "request passed its time limit; answered 504, the worker stays busy until its handler returns",
                        metadata: ["path": "\(exchange.request.path)"]
                    )
                }
            }
        }
    }
}
