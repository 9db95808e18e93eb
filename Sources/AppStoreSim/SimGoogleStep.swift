/// A failure Google's stand-in plays once, for the next call to `endpoint` (`token`, an API method such as
/// `productsv2`, or `*`): an HTTP status with Google's error body, a reset connection, garbage, or a delay
/// before the normal answer.
public struct SimGoogleStep: Codable, Sendable, Equatable {
    public var endpoint: String = "*"
    public var delayMs: Int?
    public var httpStatus: Int?
    /// Google's `reason` in the error body (`purchaseTokenNotFound`).
    public var reason: String?
    /// With 429: `Retry-After` seconds.
    public var retryAfterS: Int?
    /// Answer 200 with exactly these bytes.
    public var body: String?
    public var reset: Bool?

    enum CodingKeys: String, CodingKey {
        case endpoint, reason, body, reset
        case delayMs = "delay_ms"
        case httpStatus = "http_status"
        case retryAfterS = "retry_after_s"
    }

    public init(endpoint: String = "*", httpStatus: Int? = nil, delayMs: Int? = nil) {
        self.endpoint = endpoint
        self.httpStatus = httpStatus
        self.delayMs = delayMs
    }

    /// The failing answer this step plays; nil when it only delays the normal one.
    var answer: AppStoreSimulator.Answer? {
        if reset == true { return AppStoreSimulator.Answer(reset: true) }
        if let body { return AppStoreSimulator.Answer(delayMs: delayMs ?? 0, body: Array(body.utf8)) }
        guard let httpStatus else { return nil }
        let message = reason ?? "failure"
        let error =
            #"{"error":{"code":\#(httpStatus),"message":"\#(message)","errors":[{"reason":"\#(message)"}]}}"#
        var answer = AppStoreSimulator.Answer(delayMs: delayMs ?? 0, status: httpStatus, body: Array(error.utf8))
        if let retryAfterS { answer.headers["Retry-After"] = String(retryAfterS) }
        return answer
    }
}
