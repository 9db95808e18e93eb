import Foundation
import Synchronization

extension SimServerAPI {
    /// Plays the next queued failure for the route's endpoint, or answers it from the transactions.
    func answer(_ route: SimAPIRoute, environment: String, body: [UInt8]) -> AppStoreSimulator.Answer {
        let step = state.withLock { state -> SimAPIStep? in
            guard let index = state.steps.firstIndex(where: { $0.endpoint == "*" || $0.endpoint == route.endpoint })
            else { return nil }
            return state.steps.remove(at: index)
        }
        var answer =
            play(step)
            ?? render(
                route, environment: environment, body: body, signer: step?.forged == true ? signer.forger() : signer)
        answer.delayMs = step?.delayMs ?? 0
        return answer
    }

    private func play(_ step: SimAPIStep?) -> AppStoreSimulator.Answer? {
        guard let step else { return nil }
        if step.reset == true { return AppStoreSimulator.Answer(reset: true) }
        if let body = step.body { return AppStoreSimulator.Answer(body: Array(body.utf8)) }
        guard let status = step.httpStatus else { return nil }
        let code = step.errorCode ?? (status == 429 ? 4_290_000 : status >= 500 ? 5_000_000 : status * 10_000)
        var answer = error(status, code, status == 429 ? "Rate limit exceeded." : "An error occurred.")
        if status == 429 {
            let until = Date().addingTimeInterval(Double(step.retryAfterS ?? 60))
            answer.headers["Retry-After"] = String(SimDate.milliseconds(until))
        }
        return answer
    }

    private func render(_ route: SimAPIRoute, environment: String, body: [UInt8], signer: SimSigner)
        -> AppStoreSimulator.Answer
    {
        let (known, notifications) = state.withLock { state in
            (state.transactions.filter { $0.environment == environment }, state.notifications)
        }
        let sign = { (transaction: SimAPITransaction) in signer.sign(self.payload(transaction)) }
        if route.endpoint == "notification_history" {
            return notificationHistory(
                notifications.filter { $0.environment == environment }, known: known, body: body, query: route.query,
                signer: signer)
        }
        if route.endpoint == "app_account_token" {
            return setAppAccountToken(route.id, environment: environment, body: body)
        }
        if route.endpoint == "finish_transaction" {
            // Finish Transaction: 200 with no body for a transaction Apple knows, again or not.
            let knows =
                known.contains { $0.transactionId == route.id }
                || freshPurchase(route.id, environment: environment) != nil
            return knows ? AppStoreSimulator.Answer(status: 200) : error(404, 4_040_010, "Transaction id not found.")
        }
        if route.endpoint == "order_lookup" {
            let order = known.filter { $0.orderId == route.id }
            return AppStoreSimulator.Answer(
                body: Self.json(["status": order.isEmpty ? 1 : 0, "signedTransactions": order.map(sign)]))
        }
        guard
            let transaction = known.first(where: { $0.transactionId == route.id })
                ?? freshPurchase(route.id, environment: environment)
        else {
            return error(404, 4_040_010, "Transaction id not found.")
        }
        let fresh = !known.contains { $0.transactionId == transaction.transactionId }
        let customer = (fresh ? [transaction] : known.filter { $0.customer == transaction.customer }).sorted {
            date($0.purchase) < date($1.purchase)
        }
        switch route.endpoint {
        case "transaction_info":
            return AppStoreSimulator.Answer(body: Self.json(["signedTransactionInfo": sign(transaction)]))
        case "app_transaction_info":
            return AppStoreSimulator.Answer(
                body: Self.json(["signedAppTransactionInfo": signer.sign(appTransaction(of: transaction))]))
        case "transaction_history":
            return page(customer.map(sign), revision: route.query["revision"], environment: environment)
        case "refund_history":
            return page(
                customer.filter { $0.revoked != nil }.map(sign), revision: route.query["revision"],
                environment: environment)
        case "subscription_statuses":
            return subscriptionStatuses(customer, environment: environment, signer: signer)
        default:
            return consumption(body, type: transaction.type)
        }
    }

    /// With `acceptAnyProduct`, an unknown production id bought by a customer of its own.
    private func freshPurchase(_ id: String, environment: String) -> SimAPITransaction? {
        guard let product = acceptAnyProduct, environment == "Production" else { return nil }
        return SimAPITransaction(transactionId: id, productId: product, customer: "fresh-\(id)")
    }

    /// A history page: `revision` is the index of the page's first entry, as an opaque string.
    private func page(_ signed: [String], revision: String?, environment: String) -> AppStoreSimulator.Answer {
        let start = min(revision.flatMap { Int($0.dropFirst("r".count)) } ?? 0, signed.count)
        let end = min(start + pageSize, signed.count)
        return AppStoreSimulator.Answer(
            body: Self.json([
                "revision": "r\(end)", "hasMore": end < signed.count, "bundleId": check.bundleId,
                "environment": environment, "signedTransactions": Array(signed[start..<end]),
            ]))
    }

    private func subscriptionStatuses(_ customer: [SimAPITransaction], environment: String, signer: SimSigner)
        -> AppStoreSimulator.Answer
    {
        let now = Date()
        var latest: [String: SimAPITransaction] = [:]
        for transaction in customer where transaction.type == "Auto-Renewable Subscription" {
            latest[transaction.originalTransactionId ?? transaction.transactionId] = transaction
        }
        let last = latest.sorted { $0.key < $1.key }.map { original, transaction -> [String: Any] in
            let expired = transaction.expires.map { date($0) <= now } ?? false
            return [
                "status": transaction.revoked != nil ? 5 : expired ? 2 : 1, "originalTransactionId": original,
                "signedTransactionInfo": signer.sign(payload(transaction)),
                "signedRenewalInfo": signer.sign([
                    "originalTransactionId": original, "autoRenewProductId": transaction.productId,
                    "productId": transaction.productId, "autoRenewStatus": expired ? 0 : 1,
                    "environment": environment, "signedDate": SimDate.milliseconds(now),
                ]),
            ]
        }
        return AppStoreSimulator.Answer(
            body: Self.json([
                "bundleId": check.bundleId, "environment": environment,
                "data": last.isEmpty ? [] : [["subscriptionGroupIdentifier": "group", "lastTransactions": last]],
            ]))
    }

    /// Send Consumption Information (v2) about a transaction of `type`, checked as Apple documents it: one of its
    /// delivery statuses and refund preferences; a consumption percentage in milliunits, never for an
    /// auto-renewable subscription, and above 0 when the preference is GRANT_PRORATED.
    private func consumption(_ body: [UInt8], type: String) -> AppStoreSimulator.Answer {
        guard let request = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            request["sampleContentProvided"] is Bool
        else { return error(400, 4_000_000, "Invalid request.") }
        guard request["customerConsented"] as? Bool == true else {
            return error(400, 4_000_035, "Invalid request. The customer consented field is invalid.")
        }
        let statuses = [
            "DELIVERED", "UNDELIVERED_QUALITY_ISSUE", "UNDELIVERED_WRONG_ITEM", "UNDELIVERED_SERVER_OUTAGE",
            "UNDELIVERED_OTHER",
        ]
        guard let status = request["deliveryStatus"] as? String, statuses.contains(status) else {
            return error(400, 4_000_036, "Invalid request. The delivery status field is invalid.")
        }
        let preference = request["refundPreference"] as? String
        guard preference.map(["DECLINE", "GRANT_FULL", "GRANT_PRORATED"].contains) ?? true else {
            return error(400, 4_000_000, "Invalid request. The refund preference field is invalid.")
        }
        let percentage = request["consumptionPercentage"] as? Int
        if request["consumptionPercentage"] != nil {
            guard let percentage, (0...100_000).contains(percentage), type != "Auto-Renewable Subscription" else {
                return error(400, 4_000_000, "Invalid request. The consumption percentage field is invalid.")
            }
        }
        if preference == "GRANT_PRORATED", type != "Auto-Renewable Subscription", (percentage ?? 0) <= 0 {
            return error(400, 4_000_000, "Invalid request. GRANT_PRORATED needs a consumption percentage above 0.")
        }
        return AppStoreSimulator.Answer(status: 202)
    }

    func date(_ text: String) -> Date { SimDate.resolve(text, now: epoch) ?? epoch }

    /// The AppTransaction Apple signs for the customer who made `transaction`: their own app transaction id
    /// (the transaction's, or one the stand-in derives from the customer), `appAppleId` in Production.
    func appTransaction(of transaction: SimAPITransaction) -> [String: Any] {
        let digits = transaction.customer.utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
            ($0 ^ UInt64($1)) &* 1_099_511_628_211
        }
        var fields: [String: Any] = [
            "receiptType": transaction.environment, "bundleId": check.bundleId, "applicationVersion": "1",
            "versionExternalIdentifier": 0, "receiptCreationDate": SimDate.milliseconds(epoch),
            "originalPurchaseDate": SimDate.milliseconds(epoch), "originalApplicationVersion": "1",
            "appTransactionId": transaction.appTransactionId ?? "70\(digits % 10_000_000_000_000_000)",
            "originalPlatform": "iOS", "signedDate": SimDate.milliseconds(Date()),
        ]
        if transaction.environment == "Production" { fields["appAppleId"] = appAppleId ?? 0 }
        return fields
    }

    /// The JWSTransactionDecodedPayload Apple signs for `transaction`.
    func payload(_ transaction: SimAPITransaction) -> [String: Any] {
        let purchased = SimDate.milliseconds(date(transaction.purchase))
        var fields: [String: Any] = [
            "transactionId": transaction.transactionId,
            "originalTransactionId": transaction.originalTransactionId ?? transaction.transactionId,
            "bundleId": check.bundleId, "productId": transaction.productId, "type": transaction.type,
            "purchaseDate": purchased, "originalPurchaseDate": purchased, "quantity": 1,
            "inAppOwnershipType": transaction.ownership, "transactionReason": "PURCHASE",
            "environment": transaction.environment,
            "signedDate": SimDate.milliseconds(Date()), "storefront": "USA", "storefrontId": "143441",
        ]
        if let expires = transaction.expires { fields["expiresDate"] = SimDate.milliseconds(date(expires)) }
        if let revoked = transaction.revoked {
            fields["revocationDate"] = SimDate.milliseconds(date(revoked))
            fields["revocationReason"] = 0
        }
        if let token = transaction.appAccountToken { fields["appAccountToken"] = token }
        if let appTransactionId = transaction.appTransactionId { fields["appTransactionId"] = appTransactionId }
        return fields
    }
}
