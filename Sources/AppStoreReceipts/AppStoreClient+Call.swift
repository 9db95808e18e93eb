import AsyncHTTPClient
import CoreMetrics
import Foundation
import NIOCore

extension AppStoreClient {
    /// One POST to `endpoint` once the gate gives a turn, bounded by the per-call timeout and the deadline.
    func call(_ endpoint: Endpoint, body: [UInt8], deadline: ContinuousClock.Instant) -> Result<
        VerifyReceiptResponse, CallFailure
    > {
        let turn = gate.withTurn(before: deadline - .milliseconds(50)) {
            let started = ContinuousClock.now
            defer {
                Timer(
                    label: "storegate_apple_call_duration_seconds", dimensions: [("host", endpoint.rawValue)],
                    factory: metricsFactory
                ).recordNanoseconds(started.duration(to: .now).nanoseconds)
            }
            return post(to: endpoint, body: body, deadline: deadline)
        }
        return turn
            ?? .failure(
                CallFailure(
                    "more than apple.max_concurrent_calls calls to the App Store in flight", outcome: "over_capacity"))
    }

    private func post(to endpoint: Endpoint, body: [UInt8], deadline: ContinuousClock.Instant) -> Result<
        VerifyReceiptResponse, CallFailure
    > {
        let remaining = ContinuousClock.now.duration(to: deadline)
        let limit = min(settings.callTimeout, remaining)
        guard limit > .milliseconds(50) else {
            return .failure(CallFailure("no time left before the deadline", outcome: "timeout"))
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
                    CallFailure("HTTP \(response.status.code) from \(endpoint.rawValue)", outcome: "http_error"))
            }
            let bytes = response.body.map { Array($0.readableBytesView) } ?? []
            do {
                return .success(try VerifyReceiptResponse(json: bytes))
            } catch {
                return .failure(
                    CallFailure("an unreadable answer (\(error)) from \(endpoint.rawValue)", outcome: "unreadable"))
            }
        } catch {
            let outcome =
                switch error {
                case let error as HTTPClientError where [.deadlineExceeded, .readTimeout].contains(error): "timeout"
                case is ResponseAccumulator.ResponseTooBigError: "too_large"
                default: "connection_error"
                }
            return .failure(CallFailure("\(error) calling \(endpoint.rawValue)", outcome: outcome))
        }
    }

    /// Counts one call's outcome: Apple's verdict class, or why there was none.
    func count(_ endpoint: Endpoint, outcome: String) {
        Counter(
            label: "storegate_apple_calls_total", dimensions: [("host", endpoint.rawValue), ("outcome", outcome)],
            factory: metricsFactory
        ).increment()
    }

    static func outcome(of action: ReceiptStatusPolicy.Action) -> String {
        switch action {
        case .accept: "verdict"
        case .reject: "rejected"
        case .switchToSandbox, .switchToProduction: "wrong_host"
        case .retryOnce: "malformed"
        case .misconfigured: "misconfigured"
        case .retryWithBackoff: "apple_trouble"
        }
    }

    struct CallFailure: Error {
        let reason: String
        /// The `outcome` label of `storegate_apple_calls_total`.
        let outcome: String
        init(_ reason: String, outcome: String) {
            self.reason = reason
            self.outcome = outcome
        }
    }
}
