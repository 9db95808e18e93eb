import CFastCGI

#if canImport(Glibc)
    import Glibc
#endif

/// Where idle workers wait for new connections: one epoll instance watching the listening socket, edge-triggered,
/// that every idle worker waits on.
///
/// Linux wakes the threads blocked in `accept` on one socket first in, first out, so with every worker waiting
/// there each took its turn: under 32 connections (nginx keeping 16) all 128 workers of the deploy/ config ran,
/// and each kept its own allocator pages, stack and read connection's page cache warm, so memory grew with the
/// worker count, not with the load (docs/OPERATIONS.md, Memory). Threads waiting in `epoll_wait` on one
/// instance are woken one at a time, last in first out, so a new connection wakes the worker that went idle
/// last: the workers that run are about as many as the requests in flight, and the others stay cold until a
/// burst needs them. The kernel picks the worker, for two system calls more than a blocking accept; turns kept
/// in user space (a mutex, a condition per worker, a hand-off per connection) cost 900 instructions a request.
///
/// Edge-triggered, so one worker takes each arrival's event: level-triggered, the worker woken would wake another
/// while the connection still waited, and one of them would find it gone (a wasted accept for every other
/// request, 200 instructions a request). Several connections can arrive under one edge, so a worker that accepted
/// one calls ``recheck()``, which wakes the next idle worker while any still wait; libfcgi reads the first request
/// before it returns, so the watchdog rechecks too, in case that worker is held up by a client that stalls.
final class ConnectionWait: Sendable {
    private let descriptor: Int32
    private let listening: Int32

    /// Watches `listening`.
    init(listening: Int32) throws(FrontError) {
        self.listening = listening
        descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard descriptor >= 0 else { throw FrontError.system("cannot create an epoll instance") }
        var event = Self.event
        guard epoll_ctl(descriptor, EPOLL_CTL_ADD, listening, &event) == 0 else {
            let error = FrontError.system("cannot watch the listening socket")
            close(descriptor)
            throw error
        }
    }

    deinit { close(descriptor) }

    private static var event: epoll_event {
        var event = epoll_event()
        event.events = EPOLLIN.rawValue | EPOLLET.rawValue
        return event
    }

    /// Waits until a connection is waiting to be accepted; false when a signal interrupted the wait.
    func wait() -> Bool {
        var event = epoll_event()
        return epoll_wait(descriptor, &event, 1, -1) == 1
    }

    /// Wakes another idle worker if a connection is still waiting (several can arrive under one edge).
    func recheck() {
        var event = Self.event
        _ = epoll_ctl(descriptor, EPOLL_CTL_MOD, listening, &event)
    }
}
