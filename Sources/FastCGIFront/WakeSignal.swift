#if canImport(Glibc)
    import Glibc
#endif

/// The real-time signal SIGRTMIN+2, used only to wake idle workers out of `epoll_wait` or a kept connection's read at
/// shutdown. A real-time signal, so nothing sends it by accident; the stop loop sends it only to workers that
/// are waiting for a request, never to one serving a request.
enum WakeSignal {
    static let number = __libc_current_sigrtmin() + 2

    /// Installs a handler that does nothing, without SA_RESTART, so the interrupted call returns EINTR.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(number, &action, nil)
    }

    /// Lets the calling thread receive the signal. Workers call it once: masking it around every request
    /// would double the syscalls of a kept-connection request.
    static func unblock() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
