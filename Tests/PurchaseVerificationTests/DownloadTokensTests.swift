import Foundation
import GatewayHandlerAPI
import PurchaseVerification
import Testing

@Suite struct DownloadTokensTests {
    let tokens = DownloadTokens(secret: "current-secret-0123", previousSecrets: ["previous-secret-0123"], ttl: 900)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func aTokenCarriesItsClaimsUntilItExpires() throws {
        let issued = tokens.issue(
            productId: "com.x.book", originalTransactionId: "42", environment: "Sandbox", now: now)
        let (token, expires) = (issued.token, issued.expires)
        #expect(expires == now.addingTimeInterval(900))
        #expect(!token.contains("+") && !token.contains("/") && !token.contains("="))
        let claims = try #require(tokens.verify(token, now: now.addingTimeInterval(899)))
        #expect(claims.productId == "com.x.book")
        #expect(claims.originalTransactionId == "42")
        #expect(claims.environment == "Sandbox")
        #expect(claims.expires == expires)
        #expect(tokens.verify(token, now: now.addingTimeInterval(900)) == nil)
    }

    @Test func previousSecretsStillVerifyOthersDoNot() {
        let old = DownloadTokens(secret: "previous-secret-0123", ttl: 900)
        let stranger = DownloadTokens(secret: "stranger-secret-0123", ttl: 900)
        let issue = { (issuer: DownloadTokens) in
            issuer.issue(productId: "p", originalTransactionId: "1", environment: "Production", now: now).token
        }
        #expect(tokens.verify(issue(old), now: now) != nil)
        #expect(tokens.verify(issue(stranger), now: now) == nil)
        // After rotation the retired secret's tokens die with it.
        #expect(DownloadTokens(secret: "current-secret-0123", ttl: 900).verify(issue(old), now: now) == nil)
    }

    @Test func anyChangedByteIsRefused() {
        let token = tokens.issue(productId: "p", originalTransactionId: "1", environment: "Production", now: now).token
        for index in token.indices where token[index] != "." {
            var bytes = Array(token)
            let position = token.distance(from: token.startIndex, to: index)
            bytes[position] = bytes[position] == "A" ? "B" : "A"
            #expect(tokens.verify(String(bytes), now: now) == nil, "changed at \(position)")
        }
        for garbage in ["", ".", "a.b", "\(token).x", String(repeating: "A", count: 5000)] {
            #expect(tokens.verify(garbage, now: now) == nil)
        }
    }
}
