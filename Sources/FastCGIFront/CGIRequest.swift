import GatewayCore

#if canImport(Glibc)
    import Glibc
#endif

/// The one request of a CGI run, taken out of the process before any handler module's code runs. Loading the
/// config builds every handler, and a module's `init` could otherwise rewrite the request in the environment
/// before it was read (a twentieth reviewer's set `STOREGATE_ACCOUNT`, and a victim's purchase was bound to its
/// account), read another route's request (its `Authorization`, its body on stdin), or print a head of its own
/// onto the answer. So the request's variables are copied and removed from the environment, and the body and
/// the answer move to descriptors of this process's own: standard input then reads nothing, and what a module
/// prints goes to standard error, the web server's error log.
package final class CGIRequest: @unchecked Sendable {
    /// `NAME=value` copies of the request's variables, NULL-terminated, as ``RequestDecoder`` reads them.
    let parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    /// Where the body is read from and the answer written to.
    let input: Int32
    let output: Int32

    private init(parameters: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, input: Int32, output: Int32) {
        self.parameters = parameters
        self.input = input
        self.output = output
    }

    /// Takes this process's request out of its environment, standard input and standard output.
    package static func take() -> CGIRequest {
        var taken: [UnsafeMutablePointer<CChar>?] = []
        var names: [String] = []
        var entry = environ
        while let variable = entry.pointee {
            let text = String(cString: variable)
            let name = String(text.prefix { $0 != "=" })
            if isRequestVariable(name) {
                taken.append(strdup(variable))
                names.append(name)
            }
            entry += 1
        }
        for name in names { unsetenv(name) }
        let parameters = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: taken.count + 1)
        parameters.initialize(from: taken + [nil], count: taken.count + 1)
        let input = fcntl(0, F_DUPFD_CLOEXEC, 3)
        let output = fcntl(1, F_DUPFD_CLOEXEC, 3)
        let nothing = open("/dev/null", O_RDONLY | O_CLOEXEC)
        if nothing >= 0 {
            dup2(nothing, 0)
            close(nothing)
        }
        dup2(2, 1)
        return CGIRequest(parameters: parameters, input: input, output: output)
    }

    /// The request's method, for an answer given without decoding it (the config did not load).
    package var method: HTTPMethod {
        var entry = parameters
        while let variable = entry.pointee {
            let text = String(cString: variable)
            if text.hasPrefix("REQUEST_METHOD=") { return HTTPMethod(rawValue: String(text.dropFirst(15))) }
            entry += 1
        }
        return .get
    }

    /// Whether `name` describes the request (RFC 3875's meta-variables, those web servers add, the headers, the
    /// account the web server vouches for) rather than the process.
    private static func isRequestVariable(_ name: String) -> Bool {
        name.hasPrefix("HTTP_") || name.hasPrefix("REQUEST_") || name.hasPrefix("REMOTE_")
            || name.hasPrefix("SERVER_") || name.hasPrefix("SCRIPT_") || name.hasPrefix("CONTENT_")
            || name.hasPrefix("PATH_") || name.hasPrefix("DOCUMENT_")
            || [
                "AUTH_TYPE", "GATEWAY_INTERFACE", "QUERY_STRING", "HTTPS", "REDIRECT_STATUS", "STOREGATE_ACCOUNT",
            ].contains(name)
    }
}
