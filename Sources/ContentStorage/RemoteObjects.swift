import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import StoreHTTP

/// Reads remote objects through signed URLs, for the operator's commands (`storegate content`,
/// `check-config --remote`): whether an object is there and how large, and its SHA-256 from a streamed GET.
/// It blocks the calling thread; the serving path never calls it.
package struct RemoteObjects: Sendable {
    /// What one look at an object found.
    package enum Look: Sendable, Equatable {
        case found(size: Int)
        /// The storage answered that the object is not there (404), or refused the signed URL (403).
        case missing(status: Int)
        /// No usable answer: the reason in words.
        case failed(String)
    }

    /// Makes a signed URL for a method (GET or HEAD) on a key.
    private let link: @Sendable (_ method: String, _ key: String) throws -> String
    private let client: HTTPClient

    package init(link: @escaping @Sendable (_ method: String, _ key: String) throws -> String) {
        self.link = link
        client = HTTPClient.forStore(callTimeout: .seconds(30))
    }

    /// Closes the HTTP client; call once when done.
    package func shutdown() { try? client.syncShutdown() }

    /// Whether the object `key` is there, and its size (a HEAD).
    package func look(at key: String) -> Look {
        do {
            let request = try HTTPClient.Request(url: try link("HEAD", key), method: .HEAD)
            let response = try client.execute(request: request, deadline: .now() + .seconds(30)).wait()
            let status = Int(response.status.code)
            if status == 403 || status == 404 { return .missing(status: status) }
            guard status == 200 else { return .failed("the storage answered HTTP \(status)") }
            guard let length = response.headers.first(name: "Content-Length").flatMap({ Int($0) }) else {
                return .failed("the storage did not give the object's size")
            }
            return .found(size: length)
        } catch {
            return .failed("the storage could not be reached: \(error)")
        }
    }

    /// The size and SHA-256 of the object `key`, read whole with a streamed GET.
    package func measure(_ key: String) -> Result<(size: Int, sha256: String), MeasureProblem> {
        do {
            let request = try HTTPClient.Request(url: try link("GET", key), method: .GET)
            let digest = ObjectDigest()
            let measured = try client.execute(request: request, delegate: digest, deadline: .now() + .hours(6))
                .futureResult.wait()
            return measured.map { .success($0) } ?? .failure(MeasureProblem(message: digest.failure ?? "no answer"))
        } catch {
            return .failure(MeasureProblem(message: "the storage could not be read: \(error)"))
        }
    }

    /// Why an object could not be measured, in words.
    package struct MeasureProblem: Error, Sendable {
        package let message: String
    }
}

/// Hashes a GET's body as it arrives; the answer is nil unless the status is 200.
private final class ObjectDigest: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = (size: Int, sha256: String)?

    // Touched only on the delegate's event loop, one call at a time (AsyncHTTPClient's contract).
    private var hasher = SHA256()
    private var size = 0
    private var status = 0
    private(set) var failure: String?

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        status = Int(head.status.code)
        if status != 200 { failure = "the storage answered HTTP \(status)" }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        if status == 200 {
            buffer.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            size += buffer.readableBytes
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        guard status == 200 else { return nil }
        return (size, SigV4.hex(hasher.finalize()))
    }
}
