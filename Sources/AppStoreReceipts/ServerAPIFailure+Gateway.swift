import AppStoreServerAPI
import GatewayHandlerAPI
import Logging

extension ServerAPIFailure {
    /// The answer for a client whose request needed the Server API and did not get a usable answer.
    func gatewayError(logger: Logger) -> GatewayError {
        if isNotFound { return .transactionNotFound }
        if isRejected { return .badRequest("The App Store refused the transaction id: \(reason).") }
        if isMisconfigured { return .serverAPIMisconfigured }
        if isUntrustedAnswer {
            logger.critical("the App Store Server API's answer failed verification", metadata: ["reason": "\(reason)"])
        }
        let seconds = retryAfter.map { Int(($0 / .seconds(1)).rounded(.up)) } ?? UpstreamFailure.retryAfterSeconds
        return .upstreamUnavailable(retryAfterSeconds: max(seconds, 1))
    }
}
