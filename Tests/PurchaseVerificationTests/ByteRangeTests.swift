import Testing

@testable import PurchaseVerification

@Suite struct ByteRangeTests {
    @Test(
        arguments: [
            (nil, ByteRange.whole),
            ("bytes=0-99", .part(offset: 0, length: 100)),
            ("bytes=100-", .part(offset: 100, length: 900)),
            ("bytes=-10", .part(offset: 990, length: 10)),
            ("bytes=-5000", .part(offset: 0, length: 1000)),
            ("bytes=900-5000", .part(offset: 900, length: 100)),
            ("bytes=1000-", .unsatisfiable),
            ("bytes=-0", .unsatisfiable),
            ("bytes=5-2", .whole),
            ("bytes=0-1,5-6", .whole),
            ("items=0-1", .whole),
            ("bytes=abc", .whole),
        ] as [(String?, ByteRange)])
    func rangesAgainstAThousandBytes(header: String?, expected: ByteRange) {
        #expect(ByteRange(header: header, size: 1000) == expected)
    }
}
