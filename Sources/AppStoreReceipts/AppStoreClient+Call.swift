import AsyncHTTPClient
import Foundation
import GatewayConcurrency
import NIOCore
import NIOHTTP1

extension AppStoreClient {
    /// One POST to `endpoint` once the gate gives a turn, bounded by the per-call timeout and the deadline.
    func call(_ endpoint: Endpoint, body: [UInt8], deadline: ContinuousClock.Instant) -> Result<
        VerifyReceiptResponse, CallFailure
    > {
        let turn = gate.withTurn(before: deadline - .milliseconds(50)) {
            let started = ContinuousClock.now
            defer { callMetrics.time(endpoint, since: started) }
            return post(to: endpoint, body: body, deadline: deadline)
        }
        return turn
            ?? .failure(
                CallFailure(
                    "more than apple.max_concurrent_calls calls to the App Store in flight", outcome: .overCapacity))
    }

    private func post(to endpoint: Endpoint, body: [UInt8], deadline: ContinuousClock.Instant) -> Result<
        VerifyReceiptResponse, CallFailure
    > {
        let remaining = ContinuousClock.now.duration(to: deadline)
        let limit = min(settings.callTimeout, remaining)
        guard limit > .milliseconds(50) else {
            return .failure(CallFailure("no time left before the deadline", outcome: .timeout))
        }
        let url = endpoint == .production ? settings.productionURL : settings.sandboxURL
        do {
            var request = try HTTPClient.Request(url: url, method: .POST, body: .bytes(body))
            request.headers.add(name: "Content-Type", value: "application/json")
            let accumulator = ResponseAccumulator(request: request, maxBodySize: Self.maxAnswerBytes)
            let task = http.execute(
                request: request, delegate: accumulator, deadline: .now() + .nanoseconds(limit.nanoseconds))
            let response = try task.futureResult.wait()
            guard response.status.code == 200 else {
                return .failure(
                    CallFailure("HTTP \(response.status.code) from \(endpoint.rawValue)", outcome: .httpError))
            }
            let bytes = response.body.map { Array($0.readableBytesView) } ?? []
            do {
                return .success(try VerifyReceiptResponse(json: bytes))
            } catch {
                return .failure(
                    CallFailure("an unreadable answer (\(error)) from \(endpoint.rawValue)", outcome: .unreadable))
            }
        } catch {
            let outcome: AppleCallMetrics.Outcome =
                switch error {
                case let error as HTTPClientError where [.deadlineExceeded, .readTimeout].contains(error): .timeout
                case is ResponseAccumulator.ResponseTooBigError: .tooLarge
                default: .connectionError
                }
            return .failure(CallFailure("\(error) calling \(endpoint.rawValue)", outcome: outcome))
        }
    }

    struct CallFailure: Error {
        let reason: String
        let outcome: AppleCallMetrics.Outcome
        init(_ reason: String, outcome: AppleCallMetrics.Outcome) {
            self.reason = reason
            self.outcome = outcome
        }
    }
}
