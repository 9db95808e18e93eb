import GatewayCore
import GatewayServer
import Logging

/// Where one request's body comes from and its answer goes: libfcgi's streams or CGI's stdin and stdout.
/// Both transports answer through ``serve(parameters:application:recorder:counters:)``, so a request is
/// decoded, routed, answered and counted the same way whichever carried it.
protocol RequestChannel {
    /// Fills `buffer` with body bytes: the count, 0 at the end, negative on error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int
    /// Writes all of `bytes`; false when the web server went away.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool
    /// Reads past the end of the body, so the transport is in step for the next request. Defaults to nothing.
    func finishReading()
    /// Ends the answer once it is written. Defaults to nothing.
    func finish()
    /// The exchange is about to be handled; a watchdog may answer it from now on. Defaults to nothing.
    func handling(_ exchange: Exchange)
    /// Whether this channel may still write the answer (false once a watchdog answered). Defaults to true.
    func claimAnswer() -> Bool
}

extension RequestChannel {
    func finishReading() {}
    func finish() {}
    func handling(_ exchange: Exchange) {}
    func claimAnswer() -> Bool { true }

    /// Decodes the request `parameters` describe (reading its body from this channel), answers it with
    /// `application`, writes the answer here, then counts and logs it.
    func serve(
        parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        application: GatewayApplication,
        recorder: RequestRecorder,
        counters: WorkerCounters
    ) {
        let receivedAt = ArrivalTime.now
        let request = RequestDecoder.request(
            from: parameters, bodyLimit: application.server.maxBodyBytes, read: read(into:))
        finishReading()
        let exchange = application.exchange(for: consume request, receivedAt: receivedAt)
        handling(exchange)
        let response = exchange.respond()
        guard claimAnswer() else { return }
        if !send(response, for: exchange) {
            exchange.context.logger.debug("client went away before the answer was sent")
        }
        exchange.finished(response, recorder: recorder, counters: counters)
    }

    /// Writes `response` to `exchange`'s request, with its request id, and finishes the answer; false when
    /// the client went away.
    @discardableResult
    func send(_ response: GatewayResponse, for exchange: Exchange) -> Bool {
        send(response, method: exchange.request.method, requestId: exchange.context.requestId)
    }

    /// Writes the head (with `X-Request-Id` when `requestId` is given) and body of `response` and finishes
    /// the answer; false when the client went away.
    @discardableResult
    func send(_ response: GatewayResponse, method: HTTPMethod, requestId: String?) -> Bool {
        var written = ResponseEncoder.withHead(for: response, requestId: requestId, write)
        if written, ResponseEncoder.sendsBody(response, method: method) {
            if let file = response.delivery?.file {
                written = file.stream(write)
            } else if !response.body.isEmpty {
                written = response.body.withUnsafeBytes(write)
            }
        }
        finish()
        return written
    }
}
