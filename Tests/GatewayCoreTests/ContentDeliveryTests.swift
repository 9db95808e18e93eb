import GatewayCore
import Testing

@Suite struct ContentDeliveryTests {
    /// A content answer's mirror does not say where the content lives: the file's path and the content
    /// location's URI are the content path's (a twenty-fifth reviewer read the path in a content answer).
    @Test(arguments: [
        ContentDelivery(.file(FileSlice(path: "/srv/content/issues/42.pdf", offset: 0, length: 9)), exchange: 7),
        ContentDelivery(.webServer(uri: "/_storegate_content/issues/42.pdf"), exchange: 7),
    ])
    func aDeliveryShowsNothingOfWhereTheContentLives(_ delivery: ContentDelivery) {
        var response = GatewayResponse(status: 200)
        response.delivery = delivery
        var dumped = ""
        dump(response, to: &dumped)
        #expect(!dumped.contains("issues/42.pdf"), "\(dumped)")
        #expect(Mirror(reflecting: delivery).children.isEmpty)
    }
}
