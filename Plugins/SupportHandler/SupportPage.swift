import Foundation
import GatewayHandlerAPI

/// The support page's HTML: the search box, then each purchase's timeline and Apple's current view.
struct SupportPage {
    let searched: String
    var lookup: SupportLookup?
    var problem: String?
    /// When the page is made: times show how long ago they were.
    let now: Date

    init(searched: String, lookup: SupportLookup? = nil, problem: String? = nil, now: Date = Date()) {
        self.searched = searched
        self.lookup = lookup
        self.problem = problem
        self.now = now
    }

    var html: String {
        var body = """
            <h1>Customer purchases</h1>
            <form method="get"><label>Order id, transaction id, original transaction id or grant id
            <input name="q" value="\(HTMLText.escaped(searched))" autofocus size="30"></label> <button>Look up</button></form>
            """
        if let problem { body += "<p class=\"problem\">\(HTMLText.escaped(problem))</p>" }
        if let lookup { body += results(lookup) }
        return """
            <!doctype html><html lang="en"><head><meta charset="utf-8"><title>StoreGate support</title>
            <meta name="viewport" content="width=device-width, initial-scale=1"><style>\(Self.style)</style></head>
            <body>\(body)</body></html>
            """
    }

    private func results(_ lookup: SupportLookup) -> String {
        var html = ""
        if lookup.purchases.isEmpty { html += "<p class=\"problem\">The ledger holds no purchase for it.</p>" }
        for history in lookup.purchases {
            let heading = history.heading
            let link =
                "?q="
                + (history.originalTransactionId.addingPercentEncoding(
                    withAllowedCharacters: .alphanumerics) ?? "")
            html +=
                "<section class=\"purchase\"><h2><a href=\"\(HTMLText.escaped(link))\">\(HTMLText.escaped(heading))</a></h2>"
                + "<ol class=\"timeline\">"
            for event in history.timeline {
                html +=
                    "<li class=\"\(event.kind == .refunded ? "refunded" : "event")\">"
                    + "<time datetime=\"\(HTMLText.escaped(event.at.formatted(.iso8601)))\">"
                    + "\(HTMLText.escaped(SupportTime(date: event.at, now: now).text))</time> "
                    + "<b>\(HTMLText.escaped(event.kind.rawValue))</b> <span>\(HTMLText.escaped(event.detail))</span></li>"
            }
            html += "</ol></section>"
        }
        html += "<section class=\"apple\"><h2>Apple now</h2>"
        if let view = lookup.storeView {
            html += "<p>\(HTMLText.escaped(view.environment)): \(view.transactions.count) transaction(s)</p><table>"
            html += "<tr><th>transaction</th><th>product</th><th>bought</th><th>expires</th><th>refunded</th></tr>"
            for transaction in view.transactions {
                let cells = [
                    transaction.transactionId, transaction.productId, date(transaction.purchaseDate),
                    date(transaction.expiresDate), date(transaction.cancellationDate),
                ]
                html += "<tr>" + cells.map { "<td>\(HTMLText.escaped($0))</td>" }.joined() + "</tr>"
            }
            html += "</table>"
        } else {
            html +=
                "<p>\(HTMLText.escaped(lookup.storeProblem ?? "Not asked: apple.server_api is not configured."))</p>"
        }
        return html + "</section>"
    }

    private func date(_ date: Date?) -> String { date.map { SupportTime(date: $0, now: now).text } ?? "" }

    /// `name`'s value in a query string, percent-decoded (`+` is a space).
    static func parameter(_ name: String, in query: String) -> String? {
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }

    private static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:62rem;padding:0 1rem;color:#1d1d1f}
        h1{font-size:1.5rem}h2{font-size:1.1rem;margin-top:2rem}h2 a{color:inherit}input{font:inherit;padding:.3rem}
        button{font:inherit;padding:.3rem .8rem}.problem{color:#8a4b00}
        ol.timeline{list-style:none;margin:0;padding:.2rem 0 .2rem 1rem;border-left:6px solid #0a7cff}
        ol.timeline li{margin:.35rem 0}time{color:#555;font-variant-numeric:tabular-nums;margin-right:.5rem}
        li.refunded b{color:#b00020}table{border-collapse:collapse}td,th{padding:.2rem .6rem;text-align:left}
        th{border-bottom:1px solid #ccc}
        """
}
