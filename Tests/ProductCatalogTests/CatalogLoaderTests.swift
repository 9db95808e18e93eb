import Foundation
import GatewayCore
import GatewayHandlerAPI
import ProductCatalog
import Testing

@Suite struct CatalogLoaderTests {
    /// A folder with `content/a/one.bin` (5 bytes) and a file outside the content root.
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "catalog-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(
            at: url.appendingPathComponent("content/a"), withIntermediateDirectories: true)
        try Data("hello".utf8).write(to: url.appendingPathComponent("content/a/one.bin"))
        try Data("secret".utf8).write(to: url.appendingPathComponent("outside.txt"))
        return url
    }

    private func load(_ yaml: String, in folder: URL) throws(ConfigProblems) -> Catalog {
        let file = folder.appendingPathComponent("catalog.yaml")
        try? yaml.write(to: file, atomically: true, encoding: .utf8)
        return try CatalogLoader.load(file: file.path, contentRoot: folder.appendingPathComponent("content").path)
    }

    @Test func measuresContentAndKeepsProductsInOrder() throws {
        let folder = try folder()
        let catalog = try load(
            "products:\n  - { id: b.one, type: non-consumable, title: One, content: a/one.bin, content_type: text/plain }\n"
                + "  - { id: a.sub, type: auto-renewable }\n",
            in: folder
        )
        #expect(catalog.products.map(\.id) == ["b.one", "a.sub"])
        let content = try #require(catalog.product(id: "b.one")?.content)
        #expect(content.size == 5)
        // sha256("hello"), computed independently.
        #expect(content.sha256 == "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824")
        #expect(content.contentType == "text/plain")
        #expect(catalog.product(id: "a.sub")?.content == nil)
        #expect(catalog.product(id: "a/one.bin") == nil)
    }

    @Test func anObjectInTheStorageComesWithItsSizeAndDigestAndNeedsNoFolder() throws {
        let folder = try folder()
        try FileManager.default.removeItem(at: folder.appendingPathComponent("content"))
        let digest = String(repeating: "ab", count: 32)
        let catalog = try load(
            "products:\n  - { id: level.9, type: non-consumable, object: \"levels/9 final+.pak\", size: 1048576, "
                + "sha256: \(digest), content_type: application/x-pak }\n",
            in: folder)
        let content = try #require(catalog.product(id: "level.9")?.content)
        #expect(content.source == .object("levels/9 final+.pak"))
        #expect((content.size, content.sha256, content.contentType) == (1_048_576, digest, "application/x-pak"))
        #expect(content.fileName == "9 final+.pak")
    }

    @Test func anObjectWithoutItsFactsOrWithAHostileKeyIsAProblem() throws {
        let folder = try folder()
        let digest = String(repeating: "0", count: 64)
        let entries = [
            "{ id: p0, type: consumable, object: a.bin }",
            "{ id: p1, type: consumable, object: a.bin, size: -1, sha256: ABC }",
            "{ id: p2, type: consumable, object: /abs.bin, size: 1, sha256: \(digest) }",
            "{ id: p3, type: consumable, object: a/../b.bin, size: 1, sha256: \(digest) }",
            "{ id: p4, type: consumable, object: a//b.bin, size: 1, sha256: \(digest) }",
            "{ id: p5, type: consumable, object: \"a\\tb\", size: 1, sha256: \(digest) }",
            "{ id: p6, type: consumable, object: b.bin, content: a/one.bin, size: 1, sha256: \(digest) }",
        ]
        #expect {
            try load("products:\n" + entries.map { "  - \($0)\n" }.joined(), in: folder)
        } throws: { error in
            let lines = (error as? ConfigProblems)?.problems.map(\.description) ?? []
            let expected = [
                "products[0].size: is required for an object (storegate content measure writes it from the storage)",
                "products[0].sha256: is required for an object",
                "products[1].size: must be the object's size in bytes, not \"-1\"",
                "products[1].sha256: must be the object's SHA-256 in 64 lower-case hex digits",
                "products[2].object: \"/abs.bin\" must be an object key",
                "products[3].object: \"a/../b.bin\" must be an object key",
                "products[4].object: \"a//b.bin\" must be an object key",
                "products[5].object: \"a\\tb\" must be an object key",
                "products[6].object: names the content a second time: give content or object",
            ]
            return expected.allSatisfy { part in lines.contains { $0.contains(part) } }
        }
    }

    @Test func theVersionFollowsTheContent() throws {
        let folder = try folder()
        let yaml = "products:\n  - { id: one, type: consumable, content: a/one.bin }\n"
        let before = try load(yaml, in: folder).version
        #expect(try load(yaml, in: folder).version == before)
        try Data("hellO".utf8).write(to: folder.appendingPathComponent("content/a/one.bin"))
        #expect(try load(yaml, in: folder).version != before)
    }

    @Test func hostileContentPathsAreRefused() throws {
        let folder = try folder()
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("content/escape").path,
            withDestinationPath: folder.appendingPathComponent("outside.txt").path
        )
        for path in [
            "../outside.txt", "/etc/passwd", "a/../../outside.txt", "escape", "a", "a//one.bin", "./a/one.bin",
            "missing.bin",
        ] {
            do {
                _ = try load("products:\n  - { id: x, type: consumable, content: \"\(path)\" }\n", in: folder)
                Issue.record("\(path) must be refused")
            } catch {
                #expect(
                    error.problems.map(\.keyPath) == ["\(folder.path)/catalog.yaml: products[0].content"], "\(path)")
            }
        }
    }

    @Test func everyProductProblemIsNamed() throws {
        let folder = try folder()
        do {
            _ = try load(
                "products:\n  - { id: \"bad/id\", type: consumable }\n  - { id: ok, type: gift }\n"
                    + "  - { id: ok2, type: consumable }\n  - { id: ok2, type: consumable }\n  - { type: consumable, colour: red }\n",
                in: folder
            )
            Issue.record("must fail")
        } catch {
            let paths = error.problems.map {
                $0.keyPath.replacingOccurrences(of: "\(folder.path)/catalog.yaml: ", with: "")
            }
            #expect(
                paths == [
                    "products[0].id", "products[1].type", "products[3].id", "products[4].id", "products[4].colour",
                ])
        }
    }

    @Test func aProductMayCarryItsIdInGooglePlay() throws {
        let folder = try folder()
        let catalog = try load(
            "products:\n  - { id: com.example.book1, type: non-consumable, store_ids: { google-play: book_1 } }\n"
                + "  - { id: magazine.monthly, type: auto-renewable }\n",
            in: folder)
        #expect(catalog.product(store: "google-play", id: "book_1")?.id == "com.example.book1")
        #expect(catalog.product(store: "google-play", id: "com.example.book1") == nil)
        #expect(catalog.product(store: "google-play", id: "magazine.monthly")?.id == "magazine.monthly")
        #expect(catalog.product(store: "app-store", id: "com.example.book1")?.id == "com.example.book1")
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(catalog.renderJSON())) as? [String: Any])
        let products = try #require(listed["products"] as? [[String: Any]])
        #expect(products[0]["store_ids"] as? [String: String] == ["google-play": "book_1"])
        #expect(products[1]["store_ids"] == nil)
    }

    /// A subscription group belongs to auto-renewable subscriptions only; without one, a product has none.
    @Test func onlyAnAutoRenewableSubscriptionHasASubscriptionGroup() throws {
        let folder = try folder()
        let catalog = try load(
            "products:\n  - { id: a.monthly, type: auto-renewable, group: premium }\n"
                + "  - { id: a.weekly, type: auto-renewable }\n",
            in: folder)
        #expect(catalog.product(id: "a.monthly")?.subscriptionGroup == "premium")
        #expect(catalog.product(id: "a.weekly")?.subscriptionGroup == nil)
        do {
            _ = try load("products:\n  - { id: a.book, type: non-consumable, group: premium }\n", in: folder)
            Issue.record("must fail")
        } catch {
            #expect(
                error.problems.map(\.message) == ["only an auto-renewable subscription belongs to a subscription group"]
            )
        }
    }

    @Test func aStoreIdThatNamesTwoProductsIsAProblem() throws {
        let folder = try folder()
        do {
            _ = try load(
                "products:\n  - { id: a.one, type: consumable, store_ids: { google-play: shared } }\n"
                    + "  - { id: b.two, type: consumable, store_ids: { google-play: shared } }\n"
                    + "  - { id: c.three, type: consumable, store_ids: { google-play: d.four } }\n"
                    + "  - { id: d.four, type: consumable }\n"
                    + "  - { id: e.five, type: consumable, store_ids: { play-store: x, google-play: \"bad/id\" } }\n",
                in: folder)
            Issue.record("must fail")
        } catch {
            let problems = error.problems.map {
                $0.keyPath.replacingOccurrences(of: "\(folder.path)/catalog.yaml: ", with: "") + ": " + $0.message
            }
            #expect(
                problems == [
                    "products[4].store_ids.google-play: must be the product's id in that store (letters, digits, '.', '_' and '-')",
                    "products[4].store_ids.play-store: is not a store whose ids the catalog gives (google-play)",
                    "products[1].store_ids.google-play: google-play id \"shared\" names both a.one and b.two",
                    "products[3].id: google-play id \"d.four\" names both c.three and d.four",
                ])
        }
    }

    @Test func productIdsNeverLookLikePaths() {
        for good in ["com.example.issue42", "a_b-c.D9"] { #expect(ProductId.isValid(good)) }
        for bad in ["", ".", "..", "a/b", "a%2Fb", "a\0b", "a b", String(repeating: "x", count: 256), "é"] {
            #expect(!ProductId.isValid(bad), "\(bad)")
        }
    }
}
