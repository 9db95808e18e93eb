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
}

/// The exchange the calling thread is answering. Handlers answer on the worker thread that read the request,
/// synchronously, so a thread-local value is the request a capability is called for.
package enum CurrentExchange {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// `body`'s result, with `exchange` as the calling thread's current exchange while it runs.
    package static func answering<Result>(_ exchange: any AnsweredExchange, _ body: () -> Result) -> Result {
        pthread_setspecific(key, Unmanaged.passUnretained(exchange as AnyObject).toOpaque())
        defer { pthread_setspecific(key, nil) }
        return body()
    }

    /// The exchange the calling thread is answering, if any.
    package static var current: (any AnsweredExchange)? {
        guard let pointer = pthread_getspecific(key) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? any AnsweredExchange
    }
}
