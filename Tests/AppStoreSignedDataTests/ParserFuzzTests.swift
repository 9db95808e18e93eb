import AppStoreSignedData
import Foundation
import SignedTestData
import Testing

/// A bounded mutation fuzzer for the JWS and PKCS#7/ASN.1 readers: valid inputs with flipped bits, inserted,
/// deleted and repeated bytes, truncations and splices. Every input must end in a verdict (verified, or a
/// `SignedDataError`), never a crash or a hang. Deterministic per seed: `STOREGATE_FUZZ_SEED` replays a run,
/// `STOREGATE_FUZZ_ITERATIONS` makes it longer (CI runs the default).
@Suite struct ParserFuzzing {
    static let seed = UInt64(ProcessInfo.processInfo.environment["STOREGATE_FUZZ_SEED"] ?? "") ?? 0x5EED_5106
    static let iterations = Int(ProcessInfo.processInfo.environment["STOREGATE_FUZZ_ITERATIONS"] ?? "") ?? 2_000

    @Test func mutatedSignedTransactionsGetAVerdict() async throws {
        let verifier = try SignedDataVerifier(
            rootCertificates: [try SignedVectors.testRoot], bundleIds: ["com.example"], environments: ["Sandbox"])
        let seeds = [
            try SignedVectors.swiftLibrary("transactionInfo"), try SignedVectors.mint(SignedVectors.transaction()),
        ]
        var random = SplitMix(seed: Self.seed)
        var verified = 0
        for round in 0..<Self.iterations {
            let input = Self.mutate(Array(seeds[round % seeds.count].utf8), &random)
            if (try? await verifier.verify(String(decoding: input, as: UTF8.self))) != nil { verified += 1 }
        }
        // Mutations that leave the signed bytes alone (e.g. in base64 padding bits) may still verify; most must not.
        #expect(verified < Self.iterations / 10, "seed \(Self.seed)")
    }

    @Test func mutatedReceiptsGetAVerdict() async throws {
        let verifier = try SignedDataVerifier(
            rootCertificates: [try SignedVectors.data("RevenueCat-purchases-ios/AppleRootCA.der")],
            bundleIds: ["com.revenuecat.sampleapp"], environments: ["Sandbox"])
        let receipt = try #require(
            Data(base64Encoded: try SignedVectors.text("RevenueCat-purchases-ios/base64encoded_sandboxReceipt.txt")))
        #expect(try await verifier.verify(receipt: receipt).bundleId == "com.revenuecat.sampleapp")
        var random = SplitMix(seed: Self.seed)
        var verified = 0
        for _ in 0..<Self.iterations {
            if (try? await verifier.verify(receipt: Data(Self.mutate(Array(receipt), &random)))) != nil {
                verified += 1
            }
        }
        // Edits outside the signed content (certificates' unsigned parts, trailing bytes) may still verify.
        #expect(verified < Self.iterations / 10, "seed \(Self.seed)")
    }

    @Test func hostileShapesAreMalformed() async throws {
        let verifier = try SignedDataVerifier(
            rootCertificates: [try SignedVectors.testRoot], bundleIds: ["com.example"], environments: ["Sandbox"])
        let deepJSON = String(repeating: "[", count: 40_000)
        let header = SignedVectors.base64URL(Data(deepJSON.utf8))
        for jws in ["\(header).\(header).AAAA", String(repeating: "a.", count: 30_000)] {
            await #expect(throws: SignedDataError.self) { try await verifier.verify(jws) }
        }
        let deepBER = Data([UInt8](repeating: 0x30, count: 2) + [UInt8]((0..<20_000).flatMap { _ in [0x30, 0x80] }))
        let indefiniteForever = Data([0x30, 0x80] + [UInt8](repeating: 0xA0, count: 100_000))
        for receipt in [deepBER, indefiniteForever, Data(count: 5 << 20)] {
            await #expect(throws: SignedDataError.self) { try await verifier.verify(receipt: receipt) }
        }
    }

    /// One to four random edits of `bytes`.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix) -> [UInt8] {
        var bytes = bytes
        for _ in 0...random.next(below: 3) where !bytes.isEmpty {
            let at = random.next(below: bytes.count)
            switch random.next(below: 6) {
            case 0: bytes[at] ^= UInt8(1 << random.next(below: 8))
            case 1: bytes[at] = UInt8(random.next(below: 256))
            case 2: bytes.insert(UInt8(random.next(below: 256)), at: at)
            case 3: bytes.remove(at: at)
            case 4: bytes.removeSubrange(at...)
            default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + random.next(below: 64))], at: at)
            }
        }
        return bytes
    }
}

/// A small seeded generator, so a failing run can be replayed.
struct SplitMix {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }
}
