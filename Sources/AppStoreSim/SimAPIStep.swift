/// A failure the Server API stand-in plays once, for the next call to `endpoint` (a name such as
/// `transaction_history`, or `*` for any). Without `http_status`, `body`, `reset` or `forged` it answers
/// normally after `delay_ms`.
public struct SimAPIStep: Codable, Sendable, Equatable {
    public var endpoint: String = "*"
    public var delayMs: Int?
    /// Answer this HTTP status with Apple's error body (`error_code`, default per status).
    public var httpStatus: Int?
    public var errorCode: Int?
    /// With 429: `Retry-After` this many seconds from now, as Apple's UNIX milliseconds.
    public var retryAfterS: Int?
    /// Answer HTTP 200 with exactly these bytes.
    public var body: String?
    public var reset: Bool?
    /// Sign the answer's transactions with a key outside the trusted chain.
    public var forged: Bool?

    enum CodingKeys: String, CodingKey {
        case endpoint, body, reset, forged
        case delayMs = "delay_ms"
        case httpStatus = "http_status"
        case errorCode = "error_code"
        case retryAfterS = "retry_after_s"
    }

    public init(endpoint: String = "*", httpStatus: Int? = nil, retryAfterS: Int? = nil) {
        self.endpoint = endpoint
        self.httpStatus = httpStatus
        self.retryAfterS = retryAfterS
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        endpoint = try container.decodeIfPresent(String.self, forKey: .endpoint) ?? endpoint
        delayMs = try container.decodeIfPresent(Int.self, forKey: .delayMs)
        httpStatus = try container.decodeIfPresent(Int.self, forKey: .httpStatus)
        errorCode = try container.decodeIfPresent(Int.self, forKey: .errorCode)
        retryAfterS = try container.decodeIfPresent(Int.self, forKey: .retryAfterS)
        body = try container.decodeIfPresent(String.self, forKey: .body)
        reset = try container.decodeIfPresent(Bool.self, forKey: .reset)
        forged = try container.decodeIfPresent(Bool.self, forKey: .forged)
    }
}
