#if canImport(Glibc)
    import Glibc
#endif

/// A request being answered: what the runtime sets for the worker thread answering it, so that a capability a
/// handler calls acts on that request, for the route it was handed to, and on no other.
package protocol AnsweredExchange: AnyObject, Sendable {
    /// The exchange's number (its context's ``RequestContext/exchange``).
    var number: UInt64 { get }
    /// The request as the transport decoded it.
    var request: GatewayRequest { get }
    var context: RequestContext { get }
    /// The mount path of the route answering it, if any.
    var routePath: String? { get }
    /// True the first time it is called, false after: one delivery of content per request, however often a
    /// handler asks (a twenty-second reviewer's asked fifty times, and the ledger recorded fifty deliveries).
    func claimDelivery() -> Bool
}

/// The exchange the calling thread is answering. Handlers answer on the worker thread that read the request,
/// synchronously, so a thread-local value is the request a capability is called for.
package enum CurrentExchange {
    /// Each thread's cell, made the first time the thread answers and freed when it ends: after that, setting
    /// the current exchange is a store, not two pthread_setspecific calls a request (69 instructions of a
    /// catalog answer's 16k, by callgrind; the cell costs 17).
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { cell in
            guard let cell = cell?.assumingMemoryBound(to: (any AnsweredExchange)?.self) else { return }
            cell.deinitialize(count: 1)
            cell.deallocate()
        }
        return key
    }()

    private static var cell: UnsafeMutablePointer<(any AnsweredExchange)?> {
        if let cell = pthread_getspecific(key) { return cell.assumingMemoryBound(to: (any AnsweredExchange)?.self) }
        let cell = UnsafeMutablePointer<(any AnsweredExchange)?>.allocate(capacity: 1)
        cell.initialize(to: nil)
        pthread_setspecific(key, cell)
        return cell
    }

    /// `body`'s result, with `exchange` as the calling thread's current exchange while it runs.
    package static func answering<Result>(_ exchange: any AnsweredExchange, _ body: () -> Result) -> Result {
        let cell = Self.cell
        let previous = cell.pointee
        cell.pointee = exchange
        defer { cell.pointee = previous }
        return body()
    }

    /// The exchange the calling thread is answering, if any.
    package static var current: (any AnsweredExchange)? {
        pthread_getspecific(key)?.assumingMemoryBound(to: (any AnsweredExchange)?.self).pointee
    }
}
