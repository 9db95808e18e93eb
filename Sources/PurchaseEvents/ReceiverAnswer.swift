import AsyncHTTPClient
import GatewayConcurrency
import NIOCore
import NIOHTTP1
import Synchronization

/// What a receiver answered a delivery: its status, and when it asked to be called again. Its body means nothing
/// (any 2xx acknowledges), so it is dropped as it arrives, and a long one is not waited for: past 64 KiB the
/// exchange ends with the status already read (the connection is closed rather than kept).
final class ReceiverAnswer: HTTPClientResponseDelegate, Sendable {
    typealias Response = Void

    /// The most of a body read before the exchange ends.
    private static let bodyLimit = 64 * 1024

    private let head = Mutex<HTTPResponseHead?>(nil)
    private let bodyBytes = Mutex(0)

    /// Why an exchange ended before its body did: the status was all it needed.
    private struct Enough: Error {}

    /// How an exchange ended.
    enum Outcome {
        case answered(status: Int, retryAfter: String?)
        /// No answer within the limit.
        case timedOut
        /// No answer: the connection failed (`reason` in words).
        case failed(reason: String)
    }

    /// Sends `request` and waits at most `limit` for the answer's status.
    static func status(of request: HTTPClient.Request, on client: HTTPClient, within limit: Duration) -> Outcome {
        let answer = ReceiverAnswer()
        do {
            try client.execute(request: request, delegate: answer, deadline: .now() + .nanoseconds(limit.nanoseconds))
                .futureResult.wait()
        } catch is Enough {
        } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout].contains(error) {
            return .timedOut
        } catch {
            if answer.head.withLock({ $0 }) == nil { return .failed(reason: "\(error)") }
        }
        guard let head = answer.head.withLock({ $0 }) else { return .failed(reason: "no answer") }
        return .answered(status: Int(head.status.code), retryAfter: head.headers.first(name: "Retry-After"))
    }

    func didReceiveHead(task: HTTPClient.Task<Void>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        self.head.withLock { $0 = head }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Void>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let read = bodyBytes.withLock { bytes in
            bytes += buffer.readableBytes
            return bytes
        }
        if read > Self.bodyLimit { task.fail(reason: Enough()) }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Void>) throws {}
}
