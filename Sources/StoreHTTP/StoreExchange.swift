import AsyncHTTPClient
import GatewayConcurrency
import NIOCore
import NIOHTTP1

/// What one HTTP exchange with a store's host gave: its answer, or why there was none.
package enum StoreExchange {
    case answered(status: Int, retryAfter: String?, body: [UInt8])
    /// No answer within the limit.
    case timedOut
    /// An answer longer than the caller takes.
    case tooLarge
    /// No answer: the connection failed (`reason` in words, never the request).
    case failed(reason: String)
}

extension HTTPClient {
    /// Sends `request` and reads its answer, at most `maxBytes` of body, blocking the calling thread (a worker's)
    /// for at most `limit`.
    package func exchange(_ request: Request, within limit: Duration, maxBytes: Int) -> StoreExchange {
        do {
            let accumulator = ResponseAccumulator(request: request, maxBodySize: maxBytes)
            let response = try execute(
                request: request, delegate: accumulator, deadline: .now() + .nanoseconds(limit.nanoseconds)
            ).futureResult.wait()
            return .answered(
                status: Int(response.status.code), retryAfter: response.headers.first(name: "Retry-After"),
                body: response.body.map { Array($0.readableBytesView) } ?? [])
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout].contains(error) {
            return .timedOut
        } catch is ResponseAccumulator.ResponseTooBigError {
            return .tooLarge
        } catch {
            return .failed(reason: "\(error)")
        }
    }
}
