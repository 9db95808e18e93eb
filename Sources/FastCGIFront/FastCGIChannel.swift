import CFastCGI
import GatewayCore
import GatewayServer

/// libfcgi's streams of a worker's request: the body from `in`, the answer to `out`. The slot decides
/// whether the worker or the watchdog writes the answer.
struct FastCGIChannel: RequestChannel {
    let slot: WorkerSlot

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        Int(
            FCGX_GetStr(
                buffer.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(buffer.count),
                slot.request.pointee.in))
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        FCGX_PutStr(
            bytes.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(bytes.count), slot.request.pointee.out)
            >= 0
    }

    func finish() { FCGX_Finish_r(slot.request) }

    func handling(_ exchange: Exchange) { slot.set(.handling(exchange)) }

    func claimAnswer() -> Bool { slot.beginWriting() }
}
