import PurchaseVerification
import Testing

/// The store a listing names for a purchase read from the ledger, by the id it is kept under.
@Suite struct PurchaseOriginTests {
    @Test func aQualifiedIdNamesItsStoreAFreeGrantIsTheServersAndAnUnqualifiedIdIsTheAppStores() {
        #expect(PurchaseOrigin.store(of: "google-play:com.example.reader:GPA.3371-1234-5678-90123") == "google-play")
        #expect(PurchaseOrigin.store(of: "google-play:com.example.reader:token-0a1b") == "google-play")
        #expect(PurchaseOrigin.store(of: "2000000123456789") == "app-store")
        #expect(PurchaseOrigin.store(of: "grant-00000000000000d1") == "grant")
        // Not a store's qualifier: an App Store id is never one, whatever a test or an old record holds.
        #expect(PurchaseOrigin.store(of: ":no-qualifier") == "app-store")
        #expect(PurchaseOrigin.store(of: "we ird:1") == "app-store")
    }
}
