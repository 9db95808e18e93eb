import AppStoreServerAPI
import Foundation
import GatewayHandlerAPI
import PurchaseVerification

extension ServerAPIBackend {
    /// With `apple.server_api.set_app_account_token`, a purchase bound to an account whose id is a UUID gets it
    /// as its `appAccountToken` unless its transaction already carries it, so Apple's later notifications
    /// and histories name the account (offer codes, purchases from before the app set tokens). Never for a family
    /// member's access through Family Sharing: Apple refuses to set a token on it.
    func purchaseBound(
        _ transaction: PurchaseTransaction, environment: String, to accountId: String, context: RequestContext
    ) {
        guard let tokenUpdates, !transaction.familyShared, let token = UUID(uuidString: accountId),
            transaction.accountToken != token.uuidString.lowercased(),
            let environment = ServerAPIEnvironment(rawValue: environment)
        else { return }
        tokenUpdates.set(
            token, originalTransactionId: transaction.originalTransactionId, environment: environment,
            logger: context.logger)
    }
}
