import GatewayCore

extension ErrorCode {
    static let receiptRequired = ErrorCode("receipt_required")
    static let notEntitled = ErrorCode("not_entitled")
    static let tokenInvalid = ErrorCode("token_invalid")

    /// The codes the verification module answers.
    static let verification: [ErrorCode] = [.receiptRequired, .notEntitled, .tokenInvalid]
}

extension GatewayError {
    public static let receiptRequired = GatewayError(
        ErrorCode.receiptRequired,
        status: 401,
        message: "This route needs a receipt or a download token."
    )

    public static let notEntitled = GatewayError(
        ErrorCode.notEntitled,
        status: 403,
        message: "The receipt or token does not cover this product."
    )

    public static let tokenInvalid = GatewayError(
        ErrorCode.tokenInvalid,
        status: 401,
        message: "The download token is invalid or has expired."
    )
}
