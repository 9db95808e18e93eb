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

    /// Reads to the body's end-of-stream record, which nginx writes on its own after a body from a temporary
    /// file: left in the socket, libfcgi took it for the next request's start and dropped the kept
    /// connection, and nginx answered the request it had sent there 502. Bytes past the declared body (no
    /// web server sends them) are dropped, as an oversized body's are. Only on a kept connection: libfcgi reads
    /// a closing one to its end itself. One character first: the usual end costs no copy, and the scratch stays
    /// small enough for the stack (4 KiB went to the heap: 585 instructions a request, where this takes 130).
    func finishReading() {
        guard slot.request.pointee.keepConnection != 0 else { return }
        let input = slot.request.pointee.in
        guard FCGX_GetChar(input) >= 0 else { return }  // EOF, -1
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 256) { scratch in
            while FCGX_GetStr(scratch.baseAddress, Int32(scratch.count), input) == scratch.count {}
        }
    }

    func finish() { FCGX_Finish_r(slot.request) }

    func handling(_ exchange: Exchange) { slot.set(.handling(exchange)) }

    func claimAnswer() -> Bool { slot.beginWriting() }
}
