import GatewayText

extension GatewayResponse {
    /// The JSON answer of a verification route: the object whose members `members` writes (in sorted key
    /// order), never cached, with `verified`'s facts for the request's log line.
    public static func verification(of verified: VerifiedPurchases, _ members: (inout JSONWriter) -> Void)
        -> GatewayResponse
    {
        var json = JSONWriter()
        json.object(members)
        var response = GatewayResponse.json(json.bytes, headers: [("Cache-Control", "no-store")])
        response.logMetadata = verified.logMetadata
        return response
    }
}
