import AppStoreServerAPI
import GatewayHandlerAPI
import Logging
import PurchaseVerification

extension ServerAPIFailure {
    /// What a support person reads where Apple's view of `query` would be, in words: what Apple said, what it
    /// means for this customer, and what to do.
    func supportSentence(for query: SupportQuery, logger: Logger) -> String {
        if isNotFound {
            switch query {
            case .orderId:
                return "Apple knows no order with this id. Check it against the customer's receipt email (it looks "
                    + "like MQ1ABC2DEF); the purchases below are what this server recorded."
            default:
                return "Apple's transaction history has no transaction with this id, in production or the sandbox. "
                    + "It may be another app's, or one this server's App Store stand-in made up; what this server "
                    + "recorded is above."
            }
        }
        if isRateLimited {
            return "Apple asked this server to wait before asking again (too many questions at once). Try again in "
                + "a few minutes; the ledger's story above is complete."
        }
        if isMisconfigured {
            return "Apple refused this server's App Store Server API key, so Apple's view cannot be shown. An "
                + "operator must check apple.server_api (issuer id, key id, key file, bundle id)."
        }
        if isUntrustedAnswer {
            logger.critical("the App Store Server API's answer failed verification", metadata: ["reason": "\(reason)"])
            return "Apple's answer could not be verified, so it is not shown. An operator has been alerted in the log."
        }
        if isRejected { return "Apple refused the question: the id is not one Apple accepts." }
        return "Apple did not answer in time. Try again in a few minutes; the ledger's story above is complete."
    }
}
