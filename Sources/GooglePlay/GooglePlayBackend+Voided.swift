import Foundation
import GatewayHandlerAPI
import GooglePlayAPI
import PurchaseVerification

extension GooglePlayBackend {
    /// Google keeps voided purchases listed for 30 days; a start before that is moved up to it.
    static let voidedListDays = 30

    /// Google's voided purchases (refunds, chargebacks, revocations, subscriptions included) of every app this
    /// server sells for, between `start` (at most 30 days back) and `end`, every page, by the digest of their
    /// tokens: a refund is found even when no notification of it arrived.
    func voidedPurchases(from start: Date, to end: Date, context: RequestContext) throws -> [VoidedPurchase]? {
        let earliest = Date().addingTimeInterval(-Double(Self.voidedListDays) * 86_400 + 60)
        let from = max(start, earliest)
        guard from < end else { return [] }
        var voided: [VoidedPurchase] = []
        for packageName in settings.packageNames {
            let listed: [VoidedPurchasesPage.Voided]
            do {
                listed = try client.voidedPurchases(
                    packageName: packageName, from: from, to: end, deadline: context.deadline, logger: context.logger)
            } catch {
                throw GatewayError.google(error)
            }
            voided += listed.map {
                VoidedPurchase(
                    store: GooglePlayIds.store, handle: TokenDigest.hex($0.purchaseToken), voidedAt: $0.voidedAt)
            }
        }
        return voided
    }

    var voidedPurchasesPollInterval: TimeInterval? { settings.voidedPollInterval }
}
