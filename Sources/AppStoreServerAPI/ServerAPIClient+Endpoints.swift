import Foundation
import Logging
import NIOHTTP1

extension ServerAPIClient {
    /// Get Transaction Info: the transaction `transactionId`, from production or (when accepted) the sandbox.
    package func transactionInfo(_ transactionId: String, deadline: ContinuousClock.Instant, logger: Logger)
        throws(ServerAPIFailure) -> ServerAPISigned
    {
        let id = try Self.pathSegment(transactionId, digitsOnly: true)
        return try inEitherEnvironment { environment throws(ServerAPIFailure) in
            let body = try send(
                .transactionInfo, to: environment, method: .GET, path: "/inApps/v1/transactions/\(id)",
                deadline: deadline, logger: logger)
            let object = try object(body, from: .transactionInfo)
            guard let jws = object["signedTransactionInfo"] as? String else {
                throw .unavailable("the answer has no signedTransactionInfo", retryAfter: .seconds(5))
            }
            return try verified(jws)
        }
    }

    /// Get App Transaction Info (API 1.17): the signed AppTransaction of the customer who made `transactionId`,
    /// in `environment`.
    package func appTransactionInfo(
        _ transactionId: String, environment: ServerAPIEnvironment, deadline: ContinuousClock.Instant, logger: Logger
    ) throws(ServerAPIFailure) -> ServerAPISigned {
        let id = try Self.pathSegment(transactionId, digitsOnly: true)
        let body = try send(
            .appTransactionInfo, to: environment, method: .GET, path: "/inApps/v1/transactions/appTransactions/\(id)",
            deadline: deadline, logger: logger)
        guard let jws = try object(body, from: .appTransactionInfo)["signedAppTransactionInfo"] as? String else {
            throw .unavailable("the answer has no signedAppTransactionInfo", retryAfter: .seconds(5))
        }
        return try verified(jws)
    }

    /// Get Transaction History v2: every transaction of the customer who made `transactionId`, all pages.
    package func transactionHistory(_ transactionId: String, deadline: ContinuousClock.Instant, logger: Logger)
        throws(ServerAPIFailure) -> [ServerAPISigned]
    {
        let id = try Self.pathSegment(transactionId, digitsOnly: true)
        return try inEitherEnvironment { environment throws(ServerAPIFailure) in
            try revisionPages(.transactionHistory, environment, path: "/inApps/v2/history/\(id)", deadline, logger)
        }
    }

    /// Get Refund History v2: the customer's refunded transactions, all pages.
    package func refundHistory(_ transactionId: String, deadline: ContinuousClock.Instant, logger: Logger)
        throws(ServerAPIFailure) -> [ServerAPISigned]
    {
        let id = try Self.pathSegment(transactionId, digitsOnly: true)
        return try inEitherEnvironment { environment throws(ServerAPIFailure) in
            try revisionPages(.refundHistory, environment, path: "/inApps/v2/refund/lookup/\(id)", deadline, logger)
        }
    }

    /// Look Up Order ID: the transactions of the order on the customer's receipt email; not found when
    /// Apple says the id is invalid in every accepted environment.
    package func lookUpOrder(_ orderId: String, deadline: ContinuousClock.Instant, logger: Logger)
        throws(ServerAPIFailure) -> [ServerAPISigned]
    {
        let id = try Self.pathSegment(orderId, digitsOnly: false)
        return try inEitherEnvironment { environment throws(ServerAPIFailure) in
            let body = try send(
                .orderLookup, to: environment, method: .GET, path: "/inApps/v1/lookup/\(id)", deadline: deadline,
                logger: logger)
            let object = try object(body, from: .orderLookup)
            guard (object["status"] as? NSNumber)?.intValue == 0 else {
                throw .notFound("Apple knows no order \(id) in \(environment.rawValue)", appleErrorCode: nil)
            }
            return try verifiedList(object, "signedTransactions")
        }
    }

    /// Reads `path` page after page (`revision`, `hasMore`), verifying every `signedTransactions` entry.
    private func revisionPages(
        _ endpoint: ServerAPIEndpoint, _ environment: ServerAPIEnvironment, path: String,
        _ deadline: ContinuousClock.Instant, _ logger: Logger
    ) throws(ServerAPIFailure) -> [ServerAPISigned] {
        try everyPage(endpoint, tokenKey: "revision") { revision throws(ServerAPIFailure) in
            let query = revision.map { "?revision=" + Self.queryValue($0) } ?? ""
            let body = try send(
                endpoint, to: environment, method: .GET, path: path + query, deadline: deadline, logger: logger)
            let object = try object(body, from: endpoint)
            return (try verifiedList(object, "signedTransactions"), object)
        }
    }

    /// The items of every page: `read` gets the previous page's token (nil first) and returns the page's
    /// items and its JSON, whose `hasMore` and `tokenKey` lead on. A page that says there is more without a
    /// new token, or more than `max_pages` pages, is Apple in trouble.
    func everyPage<Item>(
        _ endpoint: ServerAPIEndpoint, tokenKey: String,
        _ read: (String?) throws(ServerAPIFailure) -> (items: [Item], object: [String: Any])
    ) throws(ServerAPIFailure) -> [Item] {
        var all: [Item] = []
        var token: String?
        for _ in 0..<settings.maxPages {
            let page = try read(token)
            all += page.items
            guard page.object["hasMore"] as? Bool == true else { return all }
            guard let next = page.object[tokenKey] as? String, !next.isEmpty, next != token else {
                throw .unavailable(
                    "\(endpoint.rawValue) said hasMore without a new \(tokenKey)", retryAfter: .seconds(5))
            }
            token = next
        }
        throw .unavailable(
            "\(endpoint.rawValue) still had more after \(settings.maxPages) pages", retryAfter: .seconds(5))
    }

    /// `text` escaped for a query value (Apple's revision and pagination tokens are opaque).
    static func queryValue(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }
}
