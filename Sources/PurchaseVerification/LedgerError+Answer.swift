import GatewayHandlerAPI
import Logging
import PurchaseLedger

extension ErrorCode {
    /// 503 when the ledger cannot record or read.
    package static let ledgerUnavailable = ErrorCode("ledger_unavailable")
}

extension GatewayError {
    /// 503: the purchase ledger cannot record right now; nothing was granted.
    package static func ledgerUnavailable(retryAfterSeconds: Int) -> GatewayError {
        GatewayError(
            ErrorCode.ledgerUnavailable,
            status: 503,
            message: "Purchases cannot be recorded right now; try again later.",
            headers: [retryAfter(seconds: retryAfterSeconds)]
        )
    }
}

extension LedgerError {
    /// The one answer to a ledger failure, made here at the edge: logged as `what` with the reason, answered
    /// 503 `ledger_unavailable` with `Retry-After`, so nothing is granted that was not recorded.
    package func answer(_ what: String, logger: Logger) -> GatewayError {
        logger.error("\(what)", metadata: ["reason": "\(reason)"])
        return .ledgerUnavailable(retryAfterSeconds: 2)
    }
}
