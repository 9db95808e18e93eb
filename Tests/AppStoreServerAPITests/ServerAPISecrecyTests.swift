import AppStoreServerAPI
import AppStoreSim
import Crypto
import Foundation
import Testing

/// The in-app purchase key and the tokens made from it never reach a log line, whatever Apple answers.
@Suite struct ServerAPISecrecyTests {
    @Test func refusedTokensAndRetriesLogNeitherKeyNorToken() async throws {
        let bed = try ServerAPITestbed(transactions: ServerAPIClientTests.purchases(1), simKeyId: "OTHERKEY")
        defer { bed.server.close() }
        let log = CapturedLog()
        let logger = log.logger
        let refused = await bed.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: logger) }
        #expect(refused?.isMisconfigured == true)
        let trusting = try ServerAPITestbed(transactions: ServerAPIClientTests.purchases(1))
        defer { trusting.server.close() }
        trusting.serverAPI.play([SimAPIStep(httpStatus: 503), SimAPIStep(httpStatus: 500), SimAPIStep(httpStatus: 502)])
        _ = await trusting.failure { try $0.transactionInfo("2000001", deadline: .soon, logger: logger) }
        let lines = log.all
        #expect(lines.contains { $0.hasPrefix("critical") && $0.contains("401") && $0.contains("KEY123") })
        #expect(lines.contains { $0.hasPrefix("warning") && $0.contains("gave no answer") })
        let keyLines = bed.apiKey.pemRepresentation.split(separator: "\n").filter { !$0.hasPrefix("-----") }
        for line in lines {
            // Every JWT starts with the base64url of `{"`.
            #expect(!line.contains("eyJ"), "\(line)")
            #expect(!line.contains("Bearer"), "\(line)")
            for keyLine in keyLines { #expect(!line.contains(keyLine), "\(line)") }
        }
    }
}
