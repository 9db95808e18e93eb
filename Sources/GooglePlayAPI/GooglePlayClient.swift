import AsyncHTTPClient
import CoreMetrics
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import StoreHTTP
import Synchronization

/// The Play Developer API over HTTPS (TLS always verified; http only to a loopback stand-in), as the service
/// account: an access token per call from ``GoogleLogin``, Google's failures mapped to ``GooglePlayFailure``,
/// bounded retries with backoff for Google's trouble, `Retry-After` honoured, and a per-minute budget the
/// gateway keeps below Google's quota. Knows nothing of the app: plain values in, Google's answers out.
///
/// Runs on the gateway's worker threads: each call blocks its worker until Google answers or the deadline.
package final class GooglePlayClient: Sendable {
    /// Google's quota buckets the gateway's calls draw on: all of them are purchases calls.
    enum QuotaBucket: CaseIterable { case purchases }

    private let settings: GoogleAPISettings
    private let http: GoogleHTTP
    private let login: GoogleLogin
    private let budget: CallBudget<QuotaBucket>
    private let lastFailure = Mutex<String?>(nil)

    package init(settings: GoogleAPISettings, metricsFactory: any MetricsFactory) {
        self.settings = settings
        http = GoogleHTTP(
            callTimeout: settings.callTimeout, maxAttempts: settings.maxAttempts,
            metrics: GooglePlayMetrics(factory: metricsFactory))
        login = GoogleLogin(account: settings.account, tokenURL: settings.tokenURL, http: http)
        budget = CallBudget(calls: settings.callsPerMinute, per: .seconds(60))
    }

    /// The most recent failure to get an answer from Google (a refused login, 429, an outage), with its time,
    /// for `/v1/status`.
    package var lastError: String? { lastFailure.withLock { $0 } }

    /// The one-time product purchase of `token` in the app `packageName`.
    package func productPurchase(
        packageName: String, token: String, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) -> ProductPurchaseV2 {
        try decoded(
            call(.productPurchase, ["packageName": packageName, "token": token], deadline: deadline, logger: logger))
    }

    /// The subscription purchase of `token` in the app `packageName`.
    package func subscriptionPurchase(
        packageName: String, token: String, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) -> SubscriptionPurchaseV2 {
        try decoded(
            call(
                .subscriptionPurchase, ["packageName": packageName, "token": token], deadline: deadline, logger: logger)
        )
    }

    /// Acknowledges the purchase of `token` (a one-time product's, or with `subscription` a subscription's),
    /// so Google does not refund it after three days.
    package func acknowledge(
        packageName: String, productId: String, token: String, subscription: Bool, deadline: ContinuousClock.Instant,
        logger: Logger
    ) throws(GooglePlayFailure) {
        let endpoint: GooglePlayEndpoint = subscription ? .acknowledgeSubscription : .acknowledgeProduct
        let product = subscription ? "subscriptionId" : "productId"
        _ = try call(
            endpoint, ["packageName": packageName, product: productId, "token": token], body: Array("{}".utf8),
            deadline: deadline, logger: logger)
    }

    /// Consumes the one-time product purchase of `token`, so the customer can buy the product again.
    package func consume(
        packageName: String, productId: String, token: String, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) {
        _ = try call(
            .consumeProduct, ["packageName": packageName, "productId": productId, "token": token], body: [],
            deadline: deadline, logger: logger)
    }

    /// Tells Google what the developer knows of order `orderId`, whose refund a customer asked for (a pending
    /// refund review). Google keeps the first answer to a review and takes later ones without a word.
    package func reviewRefund(
        packageName: String, orderId: String, review: RefundReview, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) {
        _ = try call(
            .reviewRefund, ["packageName": packageName, "orderId": orderId], body: review.json, deadline: deadline,
            logger: logger)
    }

    /// The purchases of the app `packageName` that Google voided between `start` and `end` (subscriptions
    /// included: `type=1`), every page. Google keeps 30 days of them.
    package func voidedPurchases(
        packageName: String, from start: Date, to end: Date, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) -> [VoidedPurchasesPage.Voided] {
        var voided: [VoidedPurchasesPage.Voided] = []
        var token: String?
        repeat {
            var query = [
                "type": "1", "startTime": String(Int64(start.timeIntervalSince1970 * 1000)),
                "endTime": String(Int64(end.timeIntervalSince1970 * 1000)), "maxResults": "1000",
            ]
            query["token"] = token
            let page: VoidedPurchasesPage = try decoded(
                call(.voidedPurchases, ["packageName": packageName], query: query, deadline: deadline, logger: logger))
            voided += page.voided
            token = page.nextPageToken
        } while token != nil
        return voided
    }

    /// One call, with the budget, a login, and one more login when Google refuses a token it handed out (it
    /// may have revoked it early).
    private func call(
        _ endpoint: GooglePlayEndpoint, _ values: [String: String], query: [String: String] = [:],
        body: [UInt8]? = nil, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(GooglePlayFailure) -> [UInt8] {
        if let wait = budget.take(.purchases) {
            http.metrics.count(endpoint.rawValue, .overBudget)
            throw remember(
                GooglePlayFailure(
                    .rateLimited, "the per-minute budget of the Play Developer API is spent", retryAfter: wait))
        }
        do throws(GooglePlayFailure) {
            return try send(
                endpoint, values, query: query, body: body, deadline: deadline, logger: logger, renewingRefused: true)
        } catch {
            if error.kind == .misconfigured {
                logger.critical(
                    "Google refused the gateway's service account: check google.service_account_key and the account's access in Play Console",
                    metadata: ["endpoint": "\(endpoint.rawValue)", "account": "\(settings.account)"])
            }
            if error.kind == .rateLimited, let pause = error.retryAfter { budget.close(.purchases, for: pause) }
            if [.misconfigured, .rateLimited, .unavailable].contains(error.kind) { remember(error) }
            throw error
        }
    }

    /// The call with an access token; when Google refuses that token (401) and `renewingRefused`, once more
    /// with a new login.
    private func send(
        _ endpoint: GooglePlayEndpoint, _ values: [String: String], query: [String: String], body: [UInt8]?,
        deadline: ContinuousClock.Instant, logger: Logger, renewingRefused: Bool
    ) throws(GooglePlayFailure) -> [UInt8] {
        var url = (settings.apiURL.hasSuffix("/") ? settings.apiURL : settings.apiURL + "/") + endpoint.path(values)
        if !query.isEmpty { url += "?" + GooglePlayEndpoint.query(query) }
        var sent = ""
        var refused = false
        do {
            return try http.send(
                endpoint.rawValue, what: "the Play Developer API", deadline: deadline, logger: logger,
                make: { () throws(GooglePlayFailure) in
                    sent = try login.accessToken(deadline: deadline, logger: logger)
                    return try Self.request(endpoint, url: url, token: sent, body: body)
                },
                meaning: { status, answer in
                    if (200..<300).contains(status) { return .success(answer) }
                    refused = status == 401
                    return .failure(Self.failure(status: status, body: answer))
                })
        } catch {
            guard refused, renewingRefused else { throw error }
            login.forget(sent)
            return try send(
                endpoint, values, query: query, body: body, deadline: deadline, logger: logger, renewingRefused: false)
        }
    }

    private static func request(
        _ endpoint: GooglePlayEndpoint, url: String, token: String, body: [UInt8]?
    ) throws(GooglePlayFailure) -> HTTPClient.Request {
        do {
            var request = try HTTPClient.Request(url: url, method: endpoint.method, body: body.map { .bytes($0) })
            request.headers.add(name: "Authorization", value: "Bearer " + token)
            if let body, !body.isEmpty { request.headers.add(name: "Content-Type", value: "application/json") }
            return request
        } catch {
            throw GooglePlayFailure(.misconfigured, "google.api_url is not a URL this client can call")
        }
    }

    /// Google's refusal, with the `reason` of its error body (`purchaseTokenNotFound`) in the words.
    private static func failure(status: Int, body: [UInt8]) -> GooglePlayFailure {
        let error = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["error"] as? [String: Any]
        let reason =
            ((error?["errors"] as? [[String: Any]])?.first?["reason"] as? String) ?? (error?["status"] as? String)
        let said =
            reason.map { " (\(String($0.unicodeScalars.filter { $0.value > 0x20 && $0.value < 0x7F }.prefix(80))))" }
            ?? ""
        return switch status {
        case 401, 403:
            GooglePlayFailure(
                .misconfigured,
                "Google refused the service account with \(status)\(said): give it access to the app in Play Console (Users and permissions)"
            )
        case 404: GooglePlayFailure(.notFound, "Google knows no such purchase\(said)")
        case 410: GooglePlayFailure(.gone, "the purchase token is no longer valid\(said)")
        default: GooglePlayFailure(.rejected, "Google refused the request with \(status)\(said)")
        }
    }

    private func decoded<Answer: Decodable>(_ bytes: [UInt8]) throws(GooglePlayFailure) -> Answer {
        do {
            return try JSONDecoder().decode(Answer.self, from: Data(bytes))
        } catch {
            throw remember(
                GooglePlayFailure(
                    .unavailable, "Google's answer was not what the API documents", retryAfter: .seconds(5)))
        }
    }

    @discardableResult
    private func remember(_ failure: GooglePlayFailure) -> GooglePlayFailure {
        let time = Date().formatted(.iso8601)
        lastFailure.withLock { $0 = "\(time): Google Play Developer API \(failure)" }
        return failure
    }
}
