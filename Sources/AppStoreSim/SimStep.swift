/// How the stand-in answers one call for a receipt. With none of `status`, `http_status`, `body` or
/// `reset`, it answers the receipt normally (after `delay_ms`); `truncate` cuts any answer off halfway.
public struct SimStep: Codable, Sendable, Equatable {
    /// Wait this long before answering (a slow Apple).
    public var delayMs: Int?
    /// Answer `{"status": N}` in an HTTP 200 body.
    public var status: Int?
    /// With `status` 21100-21199: add `is-retryable` (or `is_retryable` when `underscore`).
    public var isRetryable: Bool?
    public var underscore: Bool?
    /// Answer with this HTTP status and a plain-text body (a 5xx outage).
    public var httpStatus: Int?
    /// Answer HTTP 200 with exactly these bytes (garbage, truncated JSON).
    public var body: String?
    /// Close the connection without answering.
    public var reset: Bool?
    /// Close the connection halfway through the body that `Content-Length` announced.
    public var truncate: Bool?

    enum CodingKeys: String, CodingKey {
        case status, body, reset, underscore, truncate
        case delayMs = "delay_ms"
        case isRetryable = "is_retryable"
        case httpStatus = "http_status"
    }

    public init(delayMs: Int? = nil, status: Int? = nil, httpStatus: Int? = nil, body: String? = nil) {
        self.delayMs = delayMs
        self.status = status
        self.httpStatus = httpStatus
        self.body = body
    }
}
