import CFastCGI
import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

extension FastCGIServer {
    func runWorker(_ slot: WorkerSlot) {
        WakeSignal.block()
        while !stopping.load(ordering: .sequentiallyConsistent) {
            slot.set(.accepting)
            WakeSignal.unblock()
            let status = FCGX_Accept_r(slot.request)
            WakeSignal.block()
            guard status >= 0 else {
                if status != -EINTR, !stopping.load(ordering: .sequentiallyConsistent) {
                    runtime.logger.error("accept failed", metadata: ["errno": "\(-status)"])
                    usleep(10_000)  // EMFILE and the like: do not spin
                }
                continue
            }
            slot.set(.reading)
            serve(slot)
        }
        FCGX_Free(slot.request, 1)
        slot.set(.exited)
        liveWorkers.subtract(1, ordering: .sequentiallyConsistent)
    }

    private func serve(_ slot: WorkerSlot) {
        let receivedAt = ContinuousClock.now
        if runtime.stats.workerStarted() == slots.count { warnSaturated() }
        defer { runtime.stats.workerFinished() }
        let fcgi = slot.request
        guard let parameters = fcgi.pointee.envp else {
            FCGX_Finish_r(fcgi)
            return
        }
        let head = RequestDecoder.head(from: parameters)
        let application = self.application
        let body = RequestDecoder.body(declaredLength: head.contentLength, limit: application.server.maxBodyBytes) {
            buffer in
            Int(FCGX_GetStr(buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count), fcgi.pointee.in))
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
        slot.set(.handling(.init(request: request, context: context, application: application)))
        let response = application.respond(to: request, context: context)
        guard slot.beginWriting() else { return }  // the watchdog has answered 504 already
        send(response, method: request.method, on: fcgi)
    }

    /// Writes `response` on the request's output stream and finishes the request.
    func send(_ response: GatewayResponse, method: HTTPMethod, on fcgi: UnsafeMutablePointer<FCGX_Request>) {
        let head = ResponseEncoder.head(for: response)
        var written = put(head, fcgi.pointee.out)
        if written, ResponseEncoder.sendsBody(response, method: method), !response.body.isEmpty {
            written = put(response.body, fcgi.pointee.out)
        }
        FCGX_Finish_r(fcgi)
        runtime.stats.record(status: response.status)
        if !written { runtime.logger.debug("client went away before the answer was sent") }
    }

    private func put(_ bytes: [UInt8], _ stream: UnsafeMutablePointer<FCGX_Stream>?) -> Bool {
        bytes.withUnsafeBytes { raw in
            FCGX_PutStr(raw.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(raw.count), stream) >= 0
        }
    }

    /// PHP-FPM's "reached max_children", at most once every ten seconds.
    private func warnSaturated() {
        let second = Int64(runtime.stats.startedAt.duration(to: .now).components.seconds)
        let last = lastSaturationWarning.load(ordering: .relaxed)
        guard last < 0 || second - last >= 10,
            lastSaturationWarning.compareExchange(expected: last, desired: second, ordering: .relaxed).exchanged
        else { return }
        runtime.logger.warning(
            "all workers are busy; new requests wait in the listen queue. Consider raising server.workers",
            metadata: ["workers": "\(slots.count)"]
        )
    }

    func runWatchdog() {
        while !stopping.load(ordering: .relaxed) {
            let limit = application.server.requestTimeout
            let interval = max(min(limit / 10, .milliseconds(100)), .milliseconds(10))
            usleep(UInt32(interval.components.attoseconds / 1_000_000_000_000))
            let now = ContinuousClock.now
            for slot in slots {
                slot.answerIfOverdue(now: now) { active in
                    let response = active.application.respond(
                        to: active.request,
                        context: active.context,
                        failingWith: .timeout
                    )
                    send(response, method: active.request.method, on: slot.request)
                    active.context.logger.warning(
                        "request passed its time limit; answered 504, the worker stays busy until its handler returns",
                        metadata: ["path": "\(active.request.path)"]
                    )
                }
            }
        }
    }
}
