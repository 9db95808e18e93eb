import GatewayCore

extension GatewayResponse {
    /// The JSON answer of a verification route: `answer`, never cached, with `verified`'s facts for the
    /// request's log line.
    public static func verification(_ answer: some Encodable, of verified: VerifiedPurchases) throws
        -> GatewayResponse
    {
        var response = GatewayResponse.json(
            Array(try JSONCoding.encoder.encode(answer)), headers: [("Cache-Control", "no-store")])
        response.logMetadata = verified.logMetadata
        return response
    }
}
