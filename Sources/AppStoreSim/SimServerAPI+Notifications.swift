import Foundation

extension SimServerAPI {
    /// Get Notification History: the notifications sent between the body's `startDate` and `endDate`,
    /// `pageSize` at a time; the pagination token is the next entry's index.
    func notificationHistory(
        _ notifications: [SimAPINotification], known: [SimAPITransaction], body: [UInt8], query: [String: String],
        signer: SimSigner
    ) -> AppStoreSimulator.Answer {
        guard let range = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let start = (range["startDate"] as? NSNumber)?.int64Value,
            let end = (range["endDate"] as? NSNumber)?.int64Value
        else { return error(400, 4_000_000, "startDate and endDate are required.") }
        let sent = notifications.filter { (start..<end).contains(SimDate.milliseconds(date($0.sent))) }
        let first = min(query["paginationToken"].flatMap { Int($0.dropFirst("p".count)) } ?? 0, sent.count)
        let last = min(first + pageSize, sent.count)
        let items = sent[first..<last].map { notification -> [String: Any] in
            var data: [String: Any] = ["bundleId": check.bundleId, "environment": notification.environment]
            if notification.environment == "Production", let appAppleId { data["appAppleId"] = appAppleId }
            if let transaction = known.first(where: { $0.transactionId == notification.transactionId }) {
                data["signedTransactionInfo"] = signer.sign(payload(transaction))
            }
            var fields: [String: Any] = [
                "notificationType": notification.notificationType, "notificationUUID": notification.notificationUUID,
                "data": data, "version": "2.0", "signedDate": SimDate.milliseconds(date(notification.sent)),
            ]
            if let subtype = notification.subtype { fields["subtype"] = subtype }
            return [
                "signedPayload": signer.sign(fields),
                "sendAttempts": [
                    ["attemptDate": SimDate.milliseconds(date(notification.sent)), "sendAttemptResult": "SUCCESS"]
                ],
            ]
        }
        var answer: [String: Any] = ["notificationHistory": items, "hasMore": last < sent.count]
        if last < sent.count { answer["paginationToken"] = "p\(last)" }
        return AppStoreSimulator.Answer(body: Self.json(answer))
    }
}
