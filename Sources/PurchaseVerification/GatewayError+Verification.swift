import GatewayHandlerAPI

extension ErrorCode {
    package static let receiptRequired = ErrorCode("receipt_required")
    package static let notEntitled = ErrorCode("not_entitled")
    package static let tokenInvalid = ErrorCode("token_invalid")
    package static let accountAssertionInvalid = ErrorCode("account_assertion_invalid")
    package static let accountRequired = ErrorCode("account_required")
    package static let heldByAnotherAccount = ErrorCode("held_by_another_account")

    /// The codes the verification services answer.
    package static let verification: [ErrorCode] = [
        .receiptRequired, .notEntitled, .tokenInvalid, .accountAssertionInvalid, .accountRequired,
        .heldByAnotherAccount, .ledgerUnavailable,
    ]
}

extension GatewayError {
    package static let receiptRequired = GatewayError(
        ErrorCode.receiptRequired,
        status: 401,
        message: "This route needs a receipt or a download token."
    )

    package static let notEntitled = GatewayError(
        ErrorCode.notEntitled,
        status: 403,
        message: "The receipt or token does not cover this product."
    )

    package static let tokenInvalid = GatewayError(
        ErrorCode.tokenInvalid,
        status: 401,
        message: "The download token is invalid or has expired."
    )

    package static let accountAssertionInvalid = GatewayError(
        ErrorCode.accountAssertionInvalid,
        status: 401,
        message: "The account assertion is invalid or has expired."
    )

    package static let accountRequired = GatewayError(
        ErrorCode.accountRequired,
        status: 401,
        message: "This route answers for an app account, and the request names none this server trusts."
    )

    /// Every purchase the credential proves is held by another app account, and the policy keeps it there.
    package static let heldByAnotherAccount = GatewayError(
        ErrorCode.heldByAnotherAccount,
        status: 409,
        message: "These purchases belong to another account of this app; sign in to that account to use them."
    )
}
