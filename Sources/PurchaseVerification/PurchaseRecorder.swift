import Foundation
import GatewayHandlerAPI
import Logging
import PurchaseLedger

/// Verify and record: asks the store that checks a credential, records what it vouches for in the ledger,
/// and works out the entitlements it gives, with download tokens. Behind ``PurchaseVerifier`` (verify,
/// restore-sync) and content requests that bring a receipt or signed transactions.
package final class PurchaseRecorder: Sendable {
    private let stores: StoreBackends
    private let catalog: Catalog
    private let ledger: any PurchaseLedger
    /// Set when `tokens.secret` is: entitlements to products with content then carry download tokens.
    private let tokens: DownloadTokens?
    /// Set when requests may be for an app account (config `accounts`).
    private let accounts: AccountBinder?
    /// The free grants tied to customers' purchases, which a verification of those purchases brings too.
    private let customerGrants: CustomerGrants
    /// What this recorder committed, so an answer that brings nothing new costs no write.
    private let committed = CommittedTransactions()
    /// Called when purchases were recorded with store follow-ups, so the store does them now.
    private let followUpsRecorded: @Sendable () -> Void
    private let familySharing: FamilySharing

    package init(
        stores: StoreBackends, catalog: Catalog, ledger: any PurchaseLedger, tokens: DownloadTokens?,
        accounts: AccountBinder?, familySharing: FamilySharing,
        followUpsRecorded: @escaping @Sendable () -> Void = {}
    ) {
        self.familySharing = familySharing
        self.followUpsRecorded = followUpsRecorded
        self.stores = stores
        self.catalog = catalog
        self.ledger = ledger
        self.tokens = tokens
        self.accounts = accounts
        customerGrants = CustomerGrants(ledger: ledger)
    }

    /// Verifies the credential in `request`'s body (400 without one), records its transactions as coming from
    /// verify or restore-sync, and answers with the entitlements they give, each with a fresh download token
    /// when tokens are configured and the product has content. A request for an app account also claims the
    /// purchases for it under the restore policy.
    package func verify(_ request: GatewayRequest, restoring: Bool, context: RequestContext) throws
        -> VerifiedPurchases
    {
        let account = try accounts?.account(of: request)
        let credential = try stores.credential(verificationRequest: request)
        var verified = try verify(credential, source: restoring ? .restoreSync : .verify, context: context)
        if let account, let accounts { verified = try accounts.bind(verified, to: account, context: context) }
        return verified.issuingTokens(tokens, catalog: catalog)
    }

    /// Verifies `credential` with the first backend that takes it, then records what it vouches for; the
    /// entitlements include those of free grants tied to the purchases it proves.
    package func verify(_ credential: Credential, source: LedgerSource, context: RequestContext) throws
        -> VerifiedPurchases
    {
        guard let backend = stores.backend(for: credential) else {
            throw GatewayError.badRequest("This server cannot verify that kind of purchase.")
        }
        let purchases: StorePurchases
        do {
            purchases =
                source == .restoreSync
                ? try backend.restore(credential, context: context) : try backend.verify(credential, context: context)
        } catch let ended as StorePurchaseEnded {
            try end(ended, source: source, context: context)
            throw ended.answer
        }
        return try record(purchases, source: source, context: context)
    }

    /// Records the end of the purchases the store says are over, so their grants stop at once.
    private func end(_ ended: StorePurchaseEnded, source: LedgerSource, context: RequestContext) throws(GatewayError) {
        try ledger.endPurchases(knownBy: ended.handle, store: ended.store, source: source, context: context)
    }

    /// Records verified `purchases` in the ledger (unless this recorder committed them before, unchanged) and
    /// works out their entitlements.
    private func record(_ purchases: StorePurchases, source: LedgerSource, context: RequestContext)
        throws(GatewayError) -> VerifiedPurchases
    {
        let rows = EntitlementRules.ledgerTransactions(
            purchases.transactions, environment: purchases.environment, bundleId: purchases.bundleId,
            catalog: catalog)
        let batch = LedgerBatch(
            transactions: rows, source: source, requestId: context.requestId, followUps: purchases.followUps,
            handles: purchases.handles)
        let outcome: RecordOutcome
        if committed.containsUnchanged(rows) {
            outcome = RecordOutcome(recorded: 0, known: batch.purchases.count)
        } else {
            do {
                outcome = try ledger.record(batch)
            } catch {
                var logger = context.logger
                for (key, value) in purchases.logMetadata { logger[metadataKey: key] = value }
                throw error.answer("the ledger could not record verified transactions", logger: logger)
            }
            try accounts?.bindByAccountToken(
                purchases.transactions, environment: purchases.environment, context: context)
            committed.remember(rows)
            if !batch.followUps.isEmpty { followUpsRecorded() }
        }
        let now = Date()
        if source == .restoreSync {
            // Every restore is on the support timeline, a restore that brought nothing new too (its one write).
            let restores = batch.purchases.map {
                Restore(
                    environment: purchases.environment, originalTransactionId: $0.originalTransactionId,
                    requestId: context.requestId, restoredAt: now)
            }
            do {
                try ledger.recordRestores(restores)
            } catch {
                throw error.answer("the ledger could not record a restore", logger: context.logger)
            }
        }
        var entitlements = EntitlementRules.entitlements(
            from: purchases.transactions, catalog: catalog, now: now, familySharing: familySharing)
        let given = customerGrants.entitlements(
            environment: purchases.environment, transactions: purchases.transactions, catalog: catalog, now: now)
        for grant in given where !entitlements.contains(where: { $0.productId == grant.productId }) {
            entitlements.append(grant)
            entitlements.sort { $0.productId < $1.productId }
        }
        return VerifiedPurchases(
            status: purchases.status, environment: purchases.environment, bundleId: purchases.bundleId,
            transactions: purchases.transactions, entitlements: entitlements, recordedPurchases: outcome.recorded,
            knownPurchases: outcome.known, storeFacts: purchases.logMetadata)
    }
}
