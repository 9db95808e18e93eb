// pthread_attr_t's initialiser comes from the first module map that reads its header: Dispatch's, here.
import CDispatch
#if canImport(Glibc)
    import Glibc
#endif

/// A plain OS thread for blocking libfcgi calls, which must never run on the Swift concurrency pool.
enum OSThread {
    private final class Box {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }

    /// Starts `body` on a new thread with `stackSize` bytes of stack; returns its id.
    static func spawn(stackSize: Int = 1 << 20, _ body: @escaping @Sendable () -> Void) throws(FrontError)
        -> pthread_t
    {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, stackSize)
        var thread = pthread_t()
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        let status = pthread_create(
            &thread, &attributes,
            { raw in
                Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, box)
        guard status == 0 else {
            Unmanaged<Box>.fromOpaque(box).release()
            throw FrontError.system("cannot start a thread", errno: status)
        }
        return thread
    }
}
