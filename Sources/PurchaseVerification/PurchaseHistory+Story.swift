import Foundation
import GatewayHandlerAPI
import PurchaseLedger

extension PurchaseHistory {
    /// The purchase as support reads it: which one, who holds it, and its timeline.
    var story: PurchaseStory {
        PurchaseStory(
            store: PurchaseOrigin.store(of: original.originalTransactionId), environment: original.environment,
            originalTransactionId: original.originalTransactionId,
            productId: purchases.first?.productId ?? transactions.first?.productId, holders: holders,
            timeline: timeline)
    }

    /// Every recorded moment of the purchase, oldest first: bought, recorded (by which route and request),
    /// restored (every restore-sync that named it), downloaded, notified, refund requested and what was answered,
    /// refunded, which app account held it, the free grants it is or goes with, and their revocations, and what
    /// the store was told about it (or is still to be).
    private var timeline: [TimelineEvent] {
        var events: [TimelineEvent] = []
        for grant in freeGrants {
            let recipient =
                grant.accountId.map { "to account \($0)" }
                ?? grant.customerOriginalTransactionId.map { "with purchase \($0)" } ?? ""
            let until = grant.expiresAt.map { " until \($0.formatted(.iso8601))" } ?? ""
            events.append(
                .init(
                    at: grant.grantedAt, kind: .granted,
                    detail:
                        "\(grant.productId) (\(grant.id)) \(recipient)\(until), by \(grant.grantedBy): \(grant.reason)")
            )
            if let revoked = grant.revokedAt {
                events.append(
                    .init(
                        at: revoked, kind: .grantRevoked,
                        detail: "\(grant.id) by \(grant.revokedBy ?? "someone"): \(grant.revokeReason ?? "")"))
            }
        }
        // A grant's own transaction is told by its grant above, not as a purchase.
        for transaction in transactions where transaction.source != .grant {
            if let bought = transaction.purchaseDate {
                events.append(.init(at: bought, kind: .bought, detail: "transaction \(transaction.transactionId)"))
            }
            let family = transaction.familyShared ? " (a family member's, through Family Sharing)" : ""
            events.append(
                .init(
                    at: transaction.firstSeen, kind: .recorded,
                    detail:
                        "transaction \(transaction.transactionId)\(family) by \(transaction.source.rawValue), request \(transaction.requestId)"
                ))
            if let revocation = transaction.revocation {
                events.append(
                    .init(at: revocation.date, kind: .refunded, detail: transaction.refundSummary(revocation)))
            }
        }
        for restore in restores {
            events.append(
                .init(at: restore.restoredAt, kind: .restored, detail: "by restore-sync, request \(restore.requestId)"))
        }
        for delivery in deliveries {
            events.append(
                .init(
                    at: delivery.deliveredAt, kind: .downloaded,
                    detail:
                        "\(delivery.productId), content sha256 \(delivery.contentSHA256.prefix(12))…, request \(delivery.requestId)"
                ))
        }
        for renewal in renewals {
            events.append(.init(at: renewal.signedAt, kind: .renewal, detail: renewal.summary))
        }
        for failure in deliveryFailures {
            events.append(
                .init(
                    at: failure.failedAt, kind: .downloadFailed,
                    detail: "\(failure.productId): \(failure.reason), request \(failure.requestId)"))
        }
        let asked = Set(consumptionRequests.map(\.request.notificationUUID))
        for notification in notifications {
            let type = [notification.type, notification.subtype].compactMap { $0 }.joined(separator: "/")
            events.append(
                .init(
                    at: notification.received, kind: asked.contains(notification.uuid) ? .refundRequested : .notified,
                    detail: "\(type) \(notification.uuid), request \(notification.requestId)"))
        }
        for request in consumptionRequests {
            guard let settled = request.settledAt else { continue }
            let detail =
                request.answer.map { "sent \($0) (\(request.outcome ?? ""))" }
                ?? "not answered: \(request.outcome ?? "")"
            events.append(.init(at: settled, kind: .refundAnswered, detail: detail))
        }
        for stored in followUps {
            let action = stored.followUp.action
            let attempts = "\(stored.followUp.attempts) attempt\(stored.followUp.attempts == 1 ? "" : "s")"
            let detail =
                switch stored.state {
                case .done: "\(action): done, \(stored.outcome ?? "")"
                case .abandoned: "\(action): given up after \(attempts): \(stored.outcome ?? "")"
                case .pending where stored.followUp.attempts == 0: "\(action): to do"
                case .pending: "\(action): to do again, \(attempts) so far, the last: \(stored.outcome ?? "")"
                case .waiting: "\(action): after its first download"
                }
            events.append(
                .init(at: stored.settledAt ?? stored.followUp.createdAt, kind: .storeFollowUp, detail: detail))
        }
        for event in bindingEvents {
            events.append(.init(at: event.at, kind: .account, detail: event.summary))
        }
        for event in self.events {
            let deliveries = eventDeliveries.filter { $0.sequence == event.sequence }.map(\.summary)
            let told = deliveries.isEmpty ? "no endpoint takes it" : deliveries.joined(separator: "; ")
            events.append(.init(at: event.at, kind: .event, detail: "\(event.type) \(event.id): \(told)"))
        }
        // A transaction's refund told above tells its purchase's cancellation too.
        let told = Set(transactions.compactMap { $0.revocation?.date })
        for purchase in purchases where !purchase.purchaseKey.isFreeGrant {
            if let cancelled = purchase.cancellationDate, !told.contains(cancelled) {
                events.append(.init(at: cancelled, kind: .refunded, detail: purchase.productId))
            }
        }
        return events.sorted { ($0.at, $0.kind.rawValue) < ($1.at, $1.kind.rawValue) }
    }
}

extension StoredEventDelivery {
    /// How the delivery to its endpoint went, in words: `delivered to backend`.
    fileprivate var summary: String {
        let tries = "\(attempts) attempt\(attempts == 1 ? "" : "s")"
        if state == "delivered" { return "delivered to \(endpoint)" }
        if state == "expired" {
            return "not delivered to \(endpoint) in time, after \(tries): \(outcome ?? ""); kept for a replay"
        }
        return attempts == 0
            ? "to be delivered to \(endpoint)"
            : "to be delivered to \(endpoint) again, \(tries) so far, the last: \(outcome ?? "")"
    }
}

extension StoredTransaction {
    /// What was refunded or revoked of it, in words: `com.example.coins: 2 of 4 items refunded (REFUND_PRORATED,
    /// 50%), transaction 2000000001`.
    fileprivate func refundSummary(_ revocation: LedgerRevocation) -> String {
        let what =
            if revocation.type == "FAMILY_REVOKE" {
                "Family Sharing access revoked"
            } else if revocation.quantity < quantity {
                "\(revocation.quantity) of \(quantity) items refunded"
            } else {
                "refunded"
            }
        let percentage = revocation.percentageMilliunits.map { milliunits in
            let fraction = String(String(milliunits % 1000 + 1000).dropFirst()).replacing(/0+$/, with: "")
            return "\(milliunits / 1000)\(fraction.isEmpty ? "" : "." + fraction)%"
        }
        let why = [revocation.type, percentage].compactMap { $0 }.joined(separator: ", ")
        return "\(productId): \(what)\(why.isEmpty ? "" : " (\(why))"), transaction \(transactionId)"
    }
}

extension SubscriptionRenewal {
    /// The renewal in words: `com.example.monthly: will not renew (the customer turned it off), billing retry,
    /// grace period until 2026-12-01T10:00:00Z, price increase not yet agreed, request …`.
    fileprivate var summary: String {
        var facts: [String] = []
        switch autoRenews {
        case true?:
            let into = autoRenewProductId.map { $0 == productId ? "" : " into \($0)" } ?? ""
            facts.append("renews\(into)")
        case false?:
            let why = expirationIntent.map { " (\(Self.intents[$0] ?? "reason \($0)"))" } ?? ""
            facts.append("will not renew\(why)")
        case nil: break
        }
        if inBillingRetry == true { facts.append("billing retry") }
        if let grace = gracePeriodExpires { facts.append("grace period until \(grace.formatted(.iso8601))") }
        switch priceIncreaseConsented {
        case true?: facts.append("price increase agreed")
        case false?: facts.append("price increase not yet agreed")
        case nil: break
        }
        return "\(productId): \(facts.isEmpty ? "no change" : facts.joined(separator: ", ")), request \(requestId)"
    }

    /// Apple's expiration intents in words.
    private static let intents = [
        1: "the customer turned it off", 2: "a billing error", 3: "the customer did not agree to a price increase",
        4: "the product was not available", 5: "another reason",
    ]
}

extension BindingEvent {
    /// The change in words, such as `transferred to account 7 from 42, request cv947b5-0000003`.
    var summary: String {
        let others = otherAccounts.joined(separator: ", ")
        let change =
            switch self.change {
            case .bound: "bound to account \(accountId)\(origin == .accountToken ? " by its appAccountToken" : "")"
            case .shared: "shared with account \(accountId) (also held by \(others))"
            case .transferred: "transferred to account \(accountId) from \(others)"
            case .refused: "claim by account \(accountId) refused: kept by \(others)"
            }
        return "\(change), request \(requestId)"
    }
}
