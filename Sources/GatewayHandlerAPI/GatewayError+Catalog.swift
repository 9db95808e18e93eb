extension ErrorCode {
    package static let unknownProduct = ErrorCode("unknown_product")
    package static let noContent = ErrorCode("no_content")

    /// The codes of routes that look products up in the catalog.
    package static let catalog: [ErrorCode] = [.unknownProduct, .noContent]
}

extension GatewayError {
    public static let unknownProduct = GatewayError(
        ErrorCode.unknownProduct,
        status: 404,
        message: "No such product in the catalog."
    )

    public static let noContent = GatewayError(
        ErrorCode.noContent,
        status: 404,
        message: "This product has no downloadable content."
    )
}
