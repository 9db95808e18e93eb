import Foundation

/// A call to `purchases.voidedpurchases.list`, read from its path and query as Google reads them.
struct SimGoogleVoidedListing {
    let packageName: String
    let start: Date
    let end: Date
    /// `type=1`: subscriptions as well as one-time products.
    let includesSubscriptions: Bool
    let pageSize: Int
    /// Where the page starts, from the previous page's token.
    let offset: Int

    init?(path: String) {
        guard let components = URLComponents(string: path) else { return nil }
        let segments = components.path.split(separator: "/").map(String.init)
        guard segments.count == 6, segments[0] == "androidpublisher", segments[1] == "v3",
            segments[2] == "applications", segments[4] == "purchases", segments[5] == "voidedpurchases"
        else { return nil }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        let now = Date()
        packageName = segments[3].removingPercentEncoding ?? segments[3]
        start =
            query["startTime"].flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) }
            ?? now.addingTimeInterval(-30 * 86_400)
        end = query["endTime"].flatMap(Double.init).map { Date(timeIntervalSince1970: $0 / 1000) } ?? now
        includesSubscriptions = query["type"] == "1"
        pageSize = max(1, min(1000, query["maxResults"].flatMap(Int.init) ?? 1000))
        offset = query["token"].flatMap { Int($0.dropFirst("page-".count)) } ?? 0
    }
}
