import Foundation
import Testing

extension EndToEnd {
    /// The support page through nginx, loaded by a real headless browser (Debian's chromium).
    @Suite struct SupportPage {
        /// The timeline's border colour (#0a7cff) in the page's style.
        static let timelineBlue = (10, 124, 255)

        @Test func aSearchShowsEachPurchaseWithItsTimelineInABrowser() throws {
            let gateway = try ServerAPIRoutes.gateway()
            defer { gateway.stop() }
            let (id, order) = try SupportLookup.purchasedDownloadedAndRefunded(gateway)
            let base = "http://127.0.0.1:\(gateway.deployment.port)/v1/support"

            let dom = try HeadlessBrowser.dom("\(base)?q=\(order)")
            #expect(dom.contains("app-store · Sandbox · purchase \(id) · \(SampleContent.issueId)"), "\(dom)")
            let events = dom.components(separatedBy: "<li class=").count - 1
            #expect(events >= 5)
            for event in ["bought", "recorded", "downloaded", "notified", "refunded"] {
                #expect(dom.contains("<b>\(event)</b>"), "no \(event) in:\n\(dom)")
            }
            #expect(dom.contains("Sandbox: 1 transaction(s)"))
            #expect(try HeadlessBrowser.dom("\(base)?q=\(id)").contains("<ol class=\"timeline\">"))

            // The timeline is drawn: its blue rule is on screen, and absent from the empty search page.
            let shot = try HeadlessBrowser.screenshot("\(base)?q=\(id)")
            defer { try? FileManager.default.removeItem(at: shot) }
            #expect(try HeadlessBrowser.pixels(in: shot, rgb: Self.timelineBlue) > 500)
            let empty = try HeadlessBrowser.screenshot(base)
            defer { try? FileManager.default.removeItem(at: empty) }
            #expect(try HeadlessBrowser.pixels(in: empty, rgb: Self.timelineBlue) == 0)
        }

        /// What a support person reads is in words: every restore on the timeline (those that brought nothing new
        /// too), times in UTC with their age, and what Apple said of a purchase its history lacks, never an HTTP
        /// status or an error code.
        @Test func thePageSaysWhatSupportNeedsInWords() throws {
            let gateway = try ServerAPIRoutes.gateway()
            defer { gateway.stop() }
            let id = ServerAPIRoutes.id()
            let receipt = try gateway.receipt(transactions: [Receipt.transaction(SampleContent.issueId, id)])
            #expect(try gateway.verify(receipt).status == 200)
            for _ in 0..<2 {
                let restored = try gateway.restore(receipt)
                #expect(restored.status == 200)
                #expect(restored.json["recorded"] as? Int == 0, "nothing new: \(restored.text)")
            }
            let dom = try HeadlessBrowser.dom("http://127.0.0.1:\(gateway.deployment.port)/v1/support?q=\(id)")
            #expect(dom.components(separatedBy: "<b>restored</b>").count - 1 == 2, "\(dom)")
            #expect(dom.contains(" UTC (just now)") || dom.contains(" minute ago)"), "\(dom)")
            #expect(dom.contains("Apple's transaction history has no transaction with this id"), "\(dom)")
            for code in ["422", "404", "transaction_not_found"] { #expect(!dom.contains(code), "\(code) in \(dom)") }
        }

        @Test func hostileInputIsEscapedAndThePageRunsNoScript() throws {
            let gateway = try ServerAPIRoutes.gateway()
            defer { gateway.stop() }
            let hostile = "<script>alert(1)</script>\"'&"
            let encoded = hostile.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            let answer = try gateway.deployment.request("/v1/support?q=\(encoded)")
            #expect(answer.status == 200)
            #expect(answer.header("Content-Type") == "text/html; charset=utf-8")
            #expect(answer.header("Content-Security-Policy")?.contains("default-src 'none'") == true)
            #expect(!answer.text.contains("<script"))
            #expect(answer.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;"))
            #expect(answer.text.contains("Not an order id or a transaction id."))
            let dom = try HeadlessBrowser.dom("http://127.0.0.1:\(gateway.deployment.port)/v1/support?q=\(encoded)")
            #expect(dom.contains("Not an order id or a transaction id."))
            #expect(!dom.contains("<script>alert"))
        }
    }
}
