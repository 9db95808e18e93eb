import Foundation
import ReaderHandler
import Testing

@Suite struct LibraryPageTests {
    @Test func listsEachItemWithItsTitleAndTheEndOfASubscription() {
        let page = LibraryPage(
            heading: "Your library", accountId: "alice",
            items: [
                .init(title: "Issue 1", productId: "com.example.issue1", expires: nil),
                .init(
                    title: "Monthly", productId: "com.example.monthly",
                    expires: Date(timeIntervalSince1970: 1_800_000_000)),
            ]
        ).html()
        #expect(page.contains("<h1>Your library</h1>"))
        #expect(page.contains("Signed in as alice"))
        #expect(page.contains("<li data-product=\"com.example.issue1\">Issue 1</li>"))
        #expect(page.contains("Monthly <span class=\"until\">until 2027-01-15T08:00:00Z</span>"))
        #expect(!page.contains("Nothing here yet"))
    }

    @Test func anEmptyLibrarySaysSoInWords() {
        let page = LibraryPage(heading: "Books", accountId: "bob", items: []).html()
        #expect(page.contains("Nothing here yet"))
        #expect(!page.contains("<ul>"))
    }

    @Test func markupInATitleOrAnAccountIsShownAsText() {
        let page = LibraryPage(
            heading: "<b>x</b>", accountId: "\"><script>alert(1)</script>",
            items: [.init(title: "A & <B>", productId: "p'\"", expires: nil)]
        ).html()
        #expect(!page.contains("<script>"))
        #expect(!page.contains("<b>x</b>"))
        #expect(page.contains("&lt;b&gt;x&lt;/b&gt;"))
        #expect(page.contains("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(page.contains("<li data-product=\"p&#39;&quot;\">A &amp; &lt;B&gt;</li>"))
    }
}
