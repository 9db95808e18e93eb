/// Which store a purchase is from, by the id the ledger keeps it under: a store that qualifies its ids names itself
/// (`google-play:com.example.reader:GPA.3371-…`), a free grant is this server's own (`grant-…`), and the App
/// Store's ids, which came first, are unqualified. So no table needs a store column, and a listing read from the
/// ledger says the store as an answer read from the store does.
package enum PurchaseOrigin {
    package static func store(of originalTransactionId: String) -> String {
        if originalTransactionId.hasPrefix("grant-") { return "grant" }
        guard let colon = originalTransactionId.firstIndex(of: ":") else { return "app-store" }
        let qualifier = originalTransactionId[..<colon]
        let named = !qualifier.isEmpty && qualifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
        return named ? String(qualifier) : "app-store"
    }
}
