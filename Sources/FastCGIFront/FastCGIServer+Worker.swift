import CFastCGI
import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

extension FastCGIServer {
    func runWorker(_ slot: WorkerSlot) {
        WakeSignal.unblock()
        var cached = (generation: -1, application: application)
        while !stopping.load(ordering: .sequentiallyConsistent) {
            slot.set(.accepting)
            let status = FCGX_Accept_r(slot.request)
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
        let receivedAt = ContinuousClock.now
        slot.counters.setBusy(true)
        defer { slot.counters.setBusy(false) }
        let fcgi = slot.request
        guard let parameters = fcgi.pointee.envp else {
            FCGX_Finish_r(fcgi)
            return
        }
        let head = RequestDecoder.head(from: parameters)
        let body = RequestDecoder.body(for: head, limit: application.server.maxBodyBytes) {
            buffer in
            Int(
                FCGX_GetStr(
                    buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), fcgi.pointee.in))
        }
        let request = GatewayRequest(
            method: head.method,
            path: head.path,
            query: head.query,
            headers: head.headers,
            body: body,
            remoteAddress: head.remoteAddress
        )
        let context = application.makeContext(for: request, receivedAt: receivedAt)
        slot.set(
            .handling(.init(request: request, context: context, application: application, receivedAt: receivedAt)))
        let response = application.respond(to: request, context: context)
        guard slot.beginWriting() else { return }  // the watchdog has answered 504 already
        send(response, method: request.method, on: slot)
        application.finished(
            request, context: context, response: response, receivedAt: receivedAt, recorder: slot.recorder)
    }

    /// Writes `response` on the slot's request and finishes the request.
    func send(_ response: GatewayResponse, method: HTTPMethod, on slot: WorkerSlot) {
        let fcgi = slot.request
        let head = ResponseEncoder.head(for: response)
        var written = put(head, fcgi.pointee.out)
        if written, ResponseEncoder.sendsBody(response, method: method) {
            if let file = response.file {
                written = file.stream { chunk in Self.put(chunk, fcgi.pointee.out) }
            } else if !response.body.isEmpty {
                written = put(response.body, fcgi.pointee.out)
            }
        }
        FCGX_Finish_r(fcgi)
        slot.counters.record(status: response.status)
        if !written { runtime.logger.debug("client went away before the answer was sent") }
    }

    private func put(_ bytes: [UInt8], _ stream: UnsafeMutablePointer<FCGX_Stream>?) -> Bool {
        bytes.withUnsafeBytes { raw in Self.put(raw, stream) }
    }

    private static func put(_ raw: UnsafeRawBufferPointer, _ stream: UnsafeMutablePointer<FCGX_Stream>?) -> Bool {
        FCGX_PutStr(raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), stream) >= 0
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

    func runWatchdog() {
        var wasSaturated = false
        let recorder = runtime.metrics.makeRecorder()
        while !stopping.load(ordering: .relaxed) {
            let limit = application.server.requestTimeout
            let interval = max(min(limit / 10, .milliseconds(100)), .milliseconds(10))
            usleep(UInt32(interval.components.attoseconds / 1_000_000_000_000))
            let saturated = runtime.stats.workersBusy == slots.count
            if saturated {
                if !wasSaturated { runtime.metrics.workersSaturated() }
                warnSaturated()
            }
            wasSaturated = saturated
            let now = ContinuousClock.now
            for slot in slots {
                slot.answerIfOverdue(now: now) { active in
                    let response = active.application.respond(
                        to: active.request,
                        context: active.context,
                        failingWith: .timeout
                    )
                    send(response, method: active.request.method, on: slot)
                    active.application.finished(
                        active.request, context: active.context, response: response, receivedAt: active.receivedAt,
                        recorder: recorder)
                    active.context.logger.warning(
                        "request passed its time limit; answered 504, the worker stays busy until its handler returns",
                        metadata: ["path": "\(active.request.path)"]
                    )
                }
            }
        }
    }
}
