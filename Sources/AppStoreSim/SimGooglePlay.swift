import Foundation
import Synchronization

/// Google's side for the gateway's Google Play backend: the OAuth token endpoint (`POST /token`), which checks
/// the service account's assertion and hands out access tokens, and the Play Developer API's purchases methods
/// (productsv2, subscriptionsv2, acknowledge, consume), which take only those tokens and answer from fixtures
/// (`POST /_sim/google/purchases`), `orders.reviewrefund` (the answers it took at `GET /_sim/google/refund-reviews`),
/// and Pub/Sub's signed pushes of developer notifications (``SimGooglePush``).
/// It records what it received (`GET /_sim/google/calls`, and a purchase's
/// state at `GET /_sim/google/purchases/<token>`) and can be told to fail (`POST /_sim/google/steps`).
public final class SimGooglePlay: Sendable {
    private struct State {
        var purchases: [String: (purchase: SimGooglePurchase, added: Date)] = [:]
        var tokens: [String: Date] = [:]
        var calls: [String: Int] = [:]
        var steps: [SimGoogleStep] = []
        /// The refund reviews answered, in order, as JSON objects, each with whether Google kept it (the first
        /// for its order).
        var refundReviews: [[UInt8]] = []
        var reviewedOrders: Set<String> = []

        /// The next step for `endpoint`, taken off the list.
        mutating func takeStep(for endpoint: String) -> SimGoogleStep? {
            guard let index = steps.firstIndex(where: { $0.endpoint == endpoint || $0.endpoint == "*" }) else {
                return nil
            }
            return steps.remove(at: index)
        }
    }

    private let login: SimGoogleLoginCheck
    /// Pub/Sub's pushes of real-time developer notifications.
    public let pubSub: SimGooglePush
    private let tokenLifetime: Int
    private let acceptAnyProduct: String?
    private let state = Mutex(State())

    /// - Parameters:
    ///   - login: how assertions are checked.
    ///   - tokenLifetime: the `expires_in` of the access tokens handed out, in seconds.
    ///   - acceptAnyProduct: when set, an unknown token of a one-time product is a fresh purchase of this product,
    ///     with an order id of its own (benchmarks).
    public init(login: SimGoogleLoginCheck, tokenLifetime: Int = 3599, acceptAnyProduct: String? = nil) throws {
        self.login = login
        pubSub = try SimGooglePush()
        self.tokenLifetime = tokenLifetime
        self.acceptAnyProduct = acceptAnyProduct
    }

    /// Calls per endpoint (`token`, and the API's by their discovery name), as `GET /_sim/google/calls` shows them.
    public var calls: [String: Int] { state.withLock { $0.calls } }

    /// Adds or replaces purchases by token.
    public func add(_ purchases: [SimGooglePurchase]) {
        state.withLock { state in
            for purchase in purchases { state.purchases[purchase.token] = (purchase, Date()) }
        }
    }

    /// The purchase of `token` as it stands (acknowledged, consumed).
    public func purchase(_ token: String) -> SimGooglePurchase? { state.withLock { $0.purchases[token]?.purchase } }

    /// The answer to one HTTP request, or nil when the path is not Google's.
    public func answer(method: String, path: String, authorization: String?, body: [UInt8])
        -> AppStoreSimulator.Answer?
    {
        switch (method, path) {
        case ("POST", "/token"): return token(body)
        case ("GET", "/_sim/google/calls"):
            let data = (try? JSONSerialization.data(withJSONObject: calls, options: [.sortedKeys])) ?? Data()
            return AppStoreSimulator.Answer(body: Array(data))
        case ("POST", "/_sim/google/purchases"):
            guard let list = try? JSONDecoder().decode([SimGooglePurchase].self, from: Data(body)) else {
                return AppStoreSimulator.Answer(status: 400, body: Array("not a list of purchases\n".utf8))
            }
            add(list)
            return AppStoreSimulator.Answer(status: 201, body: Array("{\"added\":\(list.count)}".utf8))
        case ("GET", "/_sim/google/push-keys"):
            state.withLock { $0.calls["push-keys", default: 0] += 1 }
            return AppStoreSimulator.Answer(body: pubSub.jwks)
        case ("POST", "/_sim/google/pubsub"):
            guard let request = try? JSONDecoder().decode(SimGooglePush.Request.self, from: Data(body)),
                let push = try? pubSub.push(request), let data = try? JSONEncoder().encode(push)
            else {
                return AppStoreSimulator.Answer(
                    status: 400, body: Array("not {notification, message_id, audience, email[, forgery]}\n".utf8))
            }
            return AppStoreSimulator.Answer(body: Array(data))
        case ("GET", "/_sim/google/refund-reviews"):
            let reviews = state.withLock { $0.refundReviews }
            return AppStoreSimulator.Answer(
                body: Array("[".utf8) + Array(reviews.joined(separator: Array(",".utf8))) + Array("]".utf8))
        case ("POST", "/_sim/google/steps"):
            guard let steps = try? JSONDecoder().decode([SimGoogleStep].self, from: Data(body)) else {
                return AppStoreSimulator.Answer(status: 400, body: Array("not a list of steps\n".utf8))
            }
            state.withLock { $0.steps += steps }
            return AppStoreSimulator.Answer(status: 201, body: Array("{\"added\":\(steps.count)}".utf8))
        default:
            if method == "GET", path.hasPrefix("/_sim/google/purchases/") {
                let token = String(path.dropFirst("/_sim/google/purchases/".count))
                guard let purchase = purchase(token), let data = try? JSONEncoder().encode(purchase) else {
                    return AppStoreSimulator.Answer(status: 404, body: Array("no such purchase\n".utf8))
                }
                return AppStoreSimulator.Answer(body: Array(data))
            }
            if method == "GET", let listing = SimGoogleVoidedListing(path: path) {
                return voided(listing, authorization: authorization)
            }
            if let review = SimGoogleRefundReview(method: method, path: path) {
                return reviewRefund(review, body: body, authorization: authorization)
            }
            guard let call = SimGoogleCall(method: method, path: path) else { return nil }
            return api(call, authorization: authorization)
        }
    }

    /// With `acceptAnyProduct`, the purchase an unknown one-time product token stands for: the same every time.
    private func anyPurchase(_ call: SimGoogleCall) -> (purchase: SimGooglePurchase, added: Date)? {
        guard let acceptAnyProduct, !call.isSubscription else { return nil }
        var purchase = SimGooglePurchase(token: call.token, packageName: call.packageName, productId: acceptAnyProduct)
        let digits = call.token.utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
            ($0 ^ UInt64($1)) &* 1_099_511_628_211
        }
        purchase.orderId = "GPA.\(digits % 10_000_000_000_000_000)"
        return (purchase, Date())
    }

    /// One call to the Play Developer API.
    private func api(_ call: SimGoogleCall, authorization: String?) -> AppStoreSimulator.Answer {
        let (step, known, issued) = state.withLock { state in
            state.calls[call.endpoint, default: 0] += 1
            let token = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            return (
                state.takeStep(for: call.endpoint), state.purchases[call.token] ?? anyPurchase(call),
                token.flatMap { state.tokens[$0] }
            )
        }
        if let failure = step?.answer { return failure }
        var answer = answer(call, known: known, issued: issued)
        answer.delayMs = step?.delayMs ?? 0
        return answer
    }

    private func answer(
        _ call: SimGoogleCall, known: (purchase: SimGooglePurchase, added: Date)?, issued: Date?
    ) -> AppStoreSimulator.Answer {
        guard let issued, issued > Date() else {
            return Self.error(401, "authError", "Request had invalid authentication credentials.")
        }
        guard let (purchase, added) = known, purchase.packageName == call.packageName,
            purchase.subscription == call.isSubscription
        else {
            return Self.error(404, "purchaseTokenNotFound", "The purchase token was not found.")
        }
        if purchase.gone {
            return Self.error(410, "purchaseTokenNoLongerValid", "The purchase token is no longer valid.")
        }
        if let productId = call.productId, productId != purchase.productId {
            return Self.error(400, "invalid", "The product does not match the purchase token.")
        }
        switch call.action {
        case .get:
            let data =
                (try? JSONSerialization.data(withJSONObject: purchase.answer(added: added), options: [.sortedKeys]))
                ?? Data()
            return AppStoreSimulator.Answer(body: Array(data))
        case .acknowledge:
            state.withLock { $0.purchases[call.token]?.purchase.acknowledged = true }
            return AppStoreSimulator.Answer(body: [])
        case .consume:
            state.withLock { $0.purchases[call.token]?.purchase.consumed = true }
            return AppStoreSimulator.Answer(body: [])
        }
    }

    /// `purchases.voidedpurchases.list`: the app's purchases voided between the listing's times (subscriptions
    /// only with `type=1`), oldest first, a page of `maxResults` at a time with a token for the next; a start
    /// more than 30 days back is refused, as Google refuses it.
    private func voided(_ listing: SimGoogleVoidedListing, authorization: String?) -> AppStoreSimulator.Answer {
        let endpoint = "purchases.voidedpurchases.list"
        let (step, issued, purchases) = state.withLock { state in
            state.calls[endpoint, default: 0] += 1
            let token = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            return (state.takeStep(for: endpoint), token.flatMap { state.tokens[$0] }, state.purchases.values)
        }
        if let failure = step?.answer { return failure }
        guard let issued, issued > Date() else {
            return Self.error(401, "authError", "Request had invalid authentication credentials.")
        }
        guard listing.start >= Date().addingTimeInterval(-30 * 86_400 - 300) else {
            return Self.error(400, "invalid", "startTime can be at most 30 days in the past.")
        }
        let listed = purchases.compactMap { entry -> (SimGooglePurchase, Date)? in
            guard let after = entry.purchase.voidedAtS, entry.purchase.packageName == listing.packageName,
                listing.includesSubscriptions || !entry.purchase.subscription
            else { return nil }
            let voidedAt = entry.added.addingTimeInterval(Double(after))
            return listing.start <= voidedAt && voidedAt <= listing.end ? (entry.purchase, voidedAt) : nil
        }.sorted { $0.1 < $1.1 }
        let page = listed.dropFirst(listing.offset).prefix(listing.pageSize)
        var answer: [String: Any] = [
            "voidedPurchases": page.map { purchase, voidedAt in
                [
                    "kind": "androidpublisher#voidedPurchase", "purchaseToken": purchase.token,
                    "orderId": purchase.orderId ?? "",
                    "voidedTimeMillis": String(Int64(voidedAt.timeIntervalSince1970 * 1000)),
                    "purchaseTimeMillis": String(Int64(voidedAt.timeIntervalSince1970 * 1000) - 3_600_000),
                    "voidedSource": 0, "voidedReason": 1,
                ] as [String: Any]
            },
            "pageInfo": ["resultPerPage": page.count, "startIndex": listing.offset, "totalResults": listed.count],
        ]
        if listing.offset + page.count < listed.count {
            answer["tokenPagination"] = ["nextPageToken": "page-\(listing.offset + page.count)"]
        }
        var reply = AppStoreSimulator.Answer(
            body: Array((try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])) ?? Data()))
        reply.delayMs = step?.delayMs ?? 0
        return reply
    }

    /// `orders.reviewrefund`: the order must be one of the app's purchases and the body as Google types it; the
    /// first answer to an order's review is kept and later ones are taken (200) but ignored, as Google does.
    private func reviewRefund(
        _ call: SimGoogleRefundReview, body: [UInt8], authorization: String?
    ) -> AppStoreSimulator.Answer {
        let endpoint = "orders.reviewrefund"
        let (step, issued, orders) = state.withLock { state in
            state.calls[endpoint, default: 0] += 1
            let token = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            let orders = state.purchases.values.filter { $0.purchase.packageName == call.packageName }
                .compactMap(\.purchase.orderId)
            return (state.takeStep(for: endpoint), token.flatMap { state.tokens[$0] }, Set(orders))
        }
        if let failure = step?.answer { return failure }
        guard let issued, issued > Date() else {
            return Self.error(401, "authError", "Request had invalid authentication credentials.")
        }
        guard orders.contains(call.orderId) else {
            return Self.error(404, "orderNotFound", "The order was not found.")
        }
        let review: SimGoogleRefundReview
        switch call.reading(body) {
        case .success(let read): review = read
        case .failure(let refusal): return Self.error(400, "invalid", refusal.message)
        }
        let kept = state.withLock { $0.reviewedOrders.insert(call.orderId).inserted }
        let entry: [String: Any] = [
            "package_name": review.packageName, "order_id": review.orderId, "body": review.body, "kept": kept,
        ]
        let recorded = Array((try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys])) ?? Data())
        state.withLock { $0.refundReviews.append(recorded) }
        var answer = AppStoreSimulator.Answer(body: Array("{}".utf8))
        answer.delayMs = step?.delayMs ?? 0
        return answer
    }

    /// Google's error body.
    static func error(_ status: Int, _ reason: String, _ message: String) -> AppStoreSimulator.Answer {
        let body: [String: Any] = [
            "error": [
                "code": status, "message": message,
                "errors": [["reason": reason, "message": message, "domain": "androidpublisher"]],
            ]
        ]
        return AppStoreSimulator.Answer(
            status: status,
            body: Array((try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()))
    }

    private func token(_ body: [UInt8]) -> AppStoreSimulator.Answer {
        let step = state.withLock { state in
            state.calls["token", default: 0] += 1
            return state.takeStep(for: "token")
        }
        if let failure = step?.answer { return failure }
        if let refusal = login.refusal(form: body) {
            let parts = refusal.split(separator: ":", maxSplits: 1).map {
                String($0).trimmingCharacters(in: CharacterSet.whitespaces)
            }
            let error = ["error": parts[0], "error_description": parts.count > 1 ? parts[1] : parts[0]]
            // A step's delay holds a refusal too: Google can be slow to say no.
            var refused = AppStoreSimulator.Answer(
                status: 400, body: Array((try? JSONSerialization.data(withJSONObject: error)) ?? Data()))
            refused.delayMs = step?.delayMs ?? 0
            return refused
        }
        let token = "ya29.sim-" + UUID().uuidString.lowercased()
        state.withLock { $0.tokens[token] = Date().addingTimeInterval(Double(tokenLifetime)) }
        let answer: [String: Any] = ["access_token": token, "expires_in": tokenLifetime, "token_type": "Bearer"]
        var reply = AppStoreSimulator.Answer(
            body: Array((try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])) ?? Data()))
        reply.delayMs = step?.delayMs ?? 0
        return reply
    }
}
