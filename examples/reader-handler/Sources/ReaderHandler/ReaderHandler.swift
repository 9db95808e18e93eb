import Foundation
import GatewayHandlerAPI

/// `GET` on its route (`/v1/reader` in the README's example): the products the asserted app account holds now,
/// as an HTML page for a web reader, titled from the catalog. It is handed what the account holds
/// (``AccountHoldings``, from the ledger alone) and the catalog, and nothing else: it cannot grant, sign or
/// deliver. 401 `account_required` without an account, as the entitlements route.
///
/// Config, `handlers.reader`: `title` (the page's heading, default "Your library").
public struct ReaderHandler: GatewayHandler {
    public static let name = "reader"

    private let holdings: AccountHoldings
    private let catalog: Catalog
    private let heading: String
    private let logger: Logger

    public init(_ setup: HandlerSetup, needs: Capabilities<AccountHoldings, Catalog>) {
        (holdings, catalog) = needs.values
        heading = setup.config.string("title", default: "Your library")
        logger = setup.logger
    }

    public func respond(to request: GatewayRequest, context: RequestContext) throws -> GatewayResponse {
        let held = try holdings.entitlements(context: context)
        let items = held.entitlements.map { entitlement in
            LibraryPage.Item(
                title: catalog.product(id: entitlement.productId)?.title ?? entitlement.productId,
                productId: entitlement.productId, expires: entitlement.expiresDate)
        }
        let page = LibraryPage(heading: heading, accountId: held.accountId, items: items)
        var response = GatewayResponse(
            status: 200, headers: [("Content-Type", "text/html; charset=utf-8"), ("Cache-Control", "no-store")],
            body: Array(page.html().utf8))
        response.logMetadata = ["account": "\(held.accountId)", "items": "\(items.count)"]
        logger.debug("reader page", metadata: ["items": "\(items.count)"])
        return response
    }
}
