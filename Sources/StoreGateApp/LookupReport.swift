import Foundation
import GatewayHandlerAPI

/// `storegate lookup`'s output: readable text for a person, or JSON for scripts.
enum LookupReport {
    static func text(_ lookup: SupportLookup) -> String {
        var lines: [String] = []
        switch lookup.query {
        case .orderId(let id): lines.append("Order \(id)")
        case .transactionId(let id): lines.append("Transaction \(id)")
        case .grantId(let id): lines.append("Free grant \(id)")
        }
        if lookup.purchases.isEmpty { lines.append("The ledger holds no purchase for it.") }
        for history in lookup.purchases {
            lines.append("")
            lines.append(history.heading)
            for event in history.timeline {
                lines.append(
                    "  \(stamp(event.at))  \(event.kind.rawValue.padding(toLength: 16, withPad: " ", startingAt: 0))  \(event.detail)"
                )
            }
        }
        lines.append("")
        if let view = lookup.storeView {
            lines.append("Apple now (\(view.environment)): \(view.transactions.count) transaction(s)")
            for transaction in view.transactions {
                var facts = ["\(transaction.transactionId)  \(transaction.productId)"]
                if let bought = transaction.purchaseDate { facts.append("bought \(stamp(bought))") }
                if let expires = transaction.expiresDate { facts.append("expires \(stamp(expires))") }
                if let refunded = transaction.cancellationDate { facts.append("refunded \(stamp(refunded))") }
                lines.append("  " + facts.joined(separator: "  "))
            }
        } else {
            lines.append("Apple now: \(lookup.storeProblem ?? "not asked (apple.server_api is not configured)")")
        }
        return lines.joined(separator: "\n")
    }

    static func json(_ lookup: SupportLookup) -> String {
        var object: [String: Any] = [:]
        switch lookup.query {
        case .orderId(let id): object["query"] = ["order_id": id]
        case .transactionId(let id): object["query"] = ["transaction_id": id]
        case .grantId(let id): object["query"] = ["grant_id": id]
        }
        object["purchases"] = lookup.purchases.map { history -> [String: Any] in
            [
                "store": history.store,
                "environment": history.environment,
                "original_transaction_id": history.originalTransactionId,
                "product_id": history.productId ?? NSNull(),
                "accounts": history.holders,
                "timeline": history.timeline.map {
                    ["at": stamp($0.at), "event": $0.kind.rawValue, "detail": $0.detail]
                },
            ]
        }
        if let view = lookup.storeView {
            object["apple"] = [
                "environment": view.environment,
                "transactions": view.transactions.map { transaction -> [String: Any] in
                    [
                        "transaction_id": transaction.transactionId,
                        "original_transaction_id": transaction.originalTransactionId,
                        "product_id": transaction.productId,
                        "purchase_date": transaction.purchaseDate.map(stamp) ?? NSNull(),
                        "expires_date": transaction.expiresDate.map(stamp) ?? NSNull(),
                        "cancellation_date": transaction.cancellationDate.map(stamp) ?? NSNull(),
                    ]
                },
            ]
        } else {
            object["apple"] = ["error": lookup.storeProblem ?? "not configured"]
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        return String(decoding: data ?? Data(), as: UTF8.self)
    }

    private static func stamp(_ date: Date) -> String { date.formatted(.iso8601) }
}
