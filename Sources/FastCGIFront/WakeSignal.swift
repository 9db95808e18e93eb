#if canImport(Glibc)
    import Glibc
#endif

/// SIGUSR2, kept for waking idle workers out of a blocking accept or read at shutdown. Workers block it
/// while they serve a request, so it can never tear one in half.
enum WakeSignal {
    static let number = SIGUSR2

    /// Installs a handler that does nothing, without SA_RESTART, so the interrupted call returns EINTR.
    static func install() {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in }
        sigemptyset(&action.sa_mask)
        action.sa_flags = 0
        sigaction(number, &action, nil)
    }

    static func block() { mask(SIG_BLOCK) }
    static func unblock() { mask(SIG_UNBLOCK) }

    private static func mask(_ how: Int32) {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, number)
        pthread_sigmask(how, &set, nil)
    }
}
