import Foundation
import GatewayCore
import GatewayText
import Testing

struct JSONWriterTests {
    /// What `JSONCoding.encoder` writes for the same values, with dates as Foundation formats them.
    private struct Reference: Encodable {
        let a_list: [Item]
        let b_text: String
        let c_null: String?
        let d_count: Int
        let e_negative: Int
        let f_date: String

        enum CodingKeys: CodingKey { case a_list, b_text, c_null, d_count, e_negative, f_date }

        // Absent values as `null`, as the gateway's answers write them (synthesised coding leaves them out).
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(a_list, forKey: .a_list)
            try container.encode(b_text, forKey: .b_text)
            try container.encode(c_null, forKey: .c_null)
            try container.encode(d_count, forKey: .d_count)
            try container.encode(e_negative, forKey: .e_negative)
            try container.encode(f_date, forKey: .f_date)
        }
    }

    private struct Item: Encodable {
        let name: String
        let when: String?

        enum CodingKeys: CodingKey { case name, when }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(when, forKey: .when)
        }
    }

    @Test func writesTheBytesJSONCodingWritesForTheSameValues() throws {
        let dates = [Date(timeIntervalSince1970: 1_795_000_123.987), Date(timeIntervalSince1970: 951_782_400)]
        let texts = ["plain", "quote \" backslash \\ slash / tab \t line \n", "é ünïcödé 🎉", ""]
        var json = JSONWriter()
        json.object { json in
            json.key("a_list")
            json.array(texts.indices) { json, index in
                json.object { json in
                    json.key("name")
                    json.string(texts[index])
                    json.key("when")
                    json.date(index < dates.count ? dates[index] : nil)
                }
            }
            json.member("b_text", "x")
            json.member("c_null", nil)
            json.member("d_count", 1_234_567)
            json.member("e_negative", -42)
            json.member("f_date", date: dates[0])
        }
        let reference = Reference(
            a_list: texts.indices.map {
                Item(name: texts[$0], when: $0 < dates.count ? dates[$0].formatted(.iso8601) : nil)
            },
            b_text: "x", c_null: nil, d_count: 1_234_567, e_negative: -42, f_date: dates[0].formatted(.iso8601))
        let expected = Array(try JSONCoding.encoder.encode(reference))
        #expect(String(decoding: json.bytes, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    @Test func controlCharactersAreEscapedSoTheTextReadsBack() throws {
        let text = "bell\u{07} nul\u{00} del\u{7F} cr\r"
        var json = JSONWriter()
        json.array([text]) { json, value in json.string(value) }
        #expect(String(decoding: json.bytes, as: UTF8.self) == #"["bell\u0007 nul\u0000 del\u007f cr\r"]"#)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String]
        #expect(decoded == [text])
    }

    @Test func datesBeyondFourDigitYearsStayValidTimestamps() {
        var json = JSONWriter()
        json.array([
            Date(timeIntervalSince1970: 1e12), Date(timeIntervalSince1970: -1e12), Date(timeIntervalSince1970: -1),
        ]) { json, date in
            json.date(date)
        }
        #expect(
            String(decoding: json.bytes, as: UTF8.self)
                == #"["9999-12-31T23:59:59Z","0001-01-01T00:00:00Z","1969-12-31T23:59:59Z"]"#)
    }
}
