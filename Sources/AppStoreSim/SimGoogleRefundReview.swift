import Foundation

/// `orders.reviewrefund` as Google takes it: `POST /androidpublisher/v3/applications/{packageName}/orders/
/// {orderId}:reviewrefund` with an `OrdersReviewRefundRequest`, checked field by field as the discovery document
/// types them (required `pendingRefundToken`, `sampleContentProvided` and `refundPreference`; a percentage in
/// milliunits 0…100000; at most 1000 usage events with RFC 3339 times; no field Google does not define).
struct SimGoogleRefundReview {
    let packageName: String
    let orderId: String
    /// The body as sent, decoded.
    let body: [String: Any]

    /// The call of `path`, or nil when it is not one.
    init?(method: String, path: String) {
        let prefix = "/androidpublisher/v3/applications/"
        let verb = ":reviewrefund"
        guard method == "POST", path.hasPrefix(prefix), path.hasSuffix(verb) else { return nil }
        let segments = path.dropFirst(prefix.count).dropLast(verb.count).split(
            separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 3, segments[1] == "orders",
            let packageName = segments[0].removingPercentEncoding, let orderId = segments[2].removingPercentEncoding
        else { return nil }
        self.packageName = packageName
        self.orderId = orderId
        body = [:]
    }

    private init(packageName: String, orderId: String, body: [String: Any]) {
        self.packageName = packageName
        self.orderId = orderId
        self.body = body
    }

    /// Google's 400 for a body it cannot take, in its words.
    struct Refusal: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// The body's typed fields (a number where Google wants a boolean is refused, as Google refuses it).
    private struct Body: Decodable {
        struct Event: Decodable {
            let consumptionTime: String?
        }
        let pendingRefundToken: String
        let sampleContentProvided: Bool
        let refundPreference: String
        let consumptionPercentageMilliunits: Int?
        let consumptionUsageEvents: [Event]?
    }

    private static let fields: Set = [
        "pendingRefundToken", "sampleContentProvided", "refundPreference", "consumptionPercentageMilliunits",
        "consumptionUsageEvents",
    ]
    private static let eventFields: Set = [
        "consumptionItemDescription", "consumptionTime", "ipAddress", "location", "obfuscatedAccountId",
        "obfuscatedProfileId",
    ]

    /// This call with its body read, or Google's words for what is wrong with it.
    func reading(_ bytes: [UInt8]) -> Result<SimGoogleRefundReview, Refusal> {
        guard let fields = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            return .failure(Refusal("Invalid JSON payload received."))
        }
        let events = fields["consumptionUsageEvents"] as? [[String: Any]] ?? []
        let names =
            fields.keys.filter { !Self.fields.contains($0) }
            + events.flatMap { $0.keys.filter { !Self.eventFields.contains($0) } }
        if let unknown = names.sorted().first {
            return .failure(Refusal("Invalid JSON payload received. Unknown name \"\(unknown)\"."))
        }
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: Data(bytes))
        } catch {
            return .failure(
                Refusal(
                    "pendingRefundToken, sampleContentProvided and refundPreference are required, typed as documented.")
            )
        }
        guard !body.pendingRefundToken.isEmpty else { return .failure(Refusal("pendingRefundToken is required.")) }
        guard ["DECLINE", "APPROVE", "NEUTRAL"].contains(body.refundPreference) else {
            return .failure(Refusal("refundPreference must be DECLINE, APPROVE or NEUTRAL."))
        }
        if let share = body.consumptionPercentageMilliunits, !(0...100_000).contains(share) {
            return .failure(Refusal("consumptionPercentageMilliunits must be 0 to 100000."))
        }
        let times = (body.consumptionUsageEvents ?? []).compactMap(\.consumptionTime)
        guard (body.consumptionUsageEvents?.count ?? 0) <= 1000 else {
            return .failure(Refusal("consumptionUsageEvents takes at most 1000 events."))
        }
        let rfc3339 = { (text: String) in
            (try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
                ?? (try? Date(text, strategy: Date.ISO8601FormatStyle()))
        }
        guard times.allSatisfy({ rfc3339($0) != nil }) else {
            return .failure(Refusal("consumptionTime is not an RFC 3339 time."))
        }
        return .success(SimGoogleRefundReview(packageName: packageName, orderId: orderId, body: fields))
    }
}
