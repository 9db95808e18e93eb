import Foundation

/// Reads what came back from one call to the Server API: the body to use, a failure to report, or trouble
/// worth another attempt, per Apple's error codes.
enum ServerAPIAnswer {
    /// What one HTTP call produced.
    enum Exchange {
        case answered(status: Int, retryAfter: String?, body: [UInt8])
        case failed(String, ServerAPIMetrics.Outcome)
        /// The call could not be made, for a reason another attempt would not change.
        case unsent(ServerAPIFailure, ServerAPIMetrics.Outcome)
    }

    /// A call without a usable answer: final, or worth another attempt.
    struct Verdict: Error {
        enum Kind {
            case final(ServerAPIFailure)
            case retry(String)
        }
        let kind: Kind
        let outcome: ServerAPIMetrics.Outcome
    }

    /// Apple's `errorCode`s that say "try again": account, app and original transaction not found yet,
    /// and the general retryable internal error.
    static let retryableErrorCodes: Set<Int> = [4_040_002, 4_040_004, 4_040_006, 5_000_001]
    /// How long to stay away after a 429 that named no time.
    static let defaultRateLimitPause: Duration = .seconds(60)

    static func classify(_ exchange: Exchange, now: Date) -> Result<[UInt8], Verdict> {
        switch exchange {
        case .failed(let reason, let outcome):
            return .failure(Verdict(kind: .retry(reason), outcome: outcome))
        case .unsent(let failure, let outcome):
            return .failure(Verdict(kind: .final(failure), outcome: outcome))
        case .answered(let status, let retryAfter, let body):
            switch status {
            case 200, 202:
                return .success(body)
            case 401:
                return .failure(
                    Verdict(
                        kind: .final(.misconfigured("the App Store Server API answered 401")), outcome: .unauthorized))
            case 429:
                let pause = self.retryAfter(retryAfter, now: now) ?? defaultRateLimitPause
                let failure = ServerAPIFailure.rateLimited("the App Store Server API answered 429", retryAfter: pause)
                return .failure(Verdict(kind: .final(failure), outcome: .rateLimited))
            case 400..<500:
                let (code, message) = appleError(body)
                let reason =
                    "HTTP \(status)" + (code.map { " errorCode \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
                if let code, retryableErrorCodes.contains(code) {
                    return .failure(Verdict(kind: .retry(reason), outcome: .appleTrouble))
                }
                let failure: ServerAPIFailure =
                    status == 404 ? .notFound(reason, appleErrorCode: code) : .rejected(reason, appleErrorCode: code)
                return .failure(Verdict(kind: .final(failure), outcome: status == 404 ? .notFound : .rejected))
            default:
                return .failure(
                    Verdict(kind: .retry("HTTP \(status) from the App Store Server API"), outcome: .appleTrouble))
            }
        }
    }

    /// `Retry-After` as Apple sends it (a UNIX time in milliseconds) or as HTTP allows (seconds).
    static func retryAfter(_ header: String?, now: Date) -> Duration? {
        guard let header, let value = Int64(header.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            return nil
        }
        // Seconds from now are small; Apple's UNIX milliseconds are far past 10^11.
        guard value > 100_000_000_000 else { return .seconds(min(value, 86_400)) }
        // Rounded as Apple's milliseconds are, so a pause never comes out a millisecond longer than asked.
        let milliseconds = value - Int64((now.timeIntervalSince1970 * 1000).rounded())
        return .milliseconds(min(max(milliseconds, 0), 86_400_000))
    }

    /// Apple's `{"errorCode": …, "errorMessage": "…"}`, when the body is one.
    static func appleError(_ body: [UInt8]) -> (code: Int?, message: String?) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
            return (nil, nil)
        }
        return ((object["errorCode"] as? NSNumber)?.intValue, object["errorMessage"] as? String)
    }
}
