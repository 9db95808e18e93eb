import SwiftASN1
import X509

/// Apple's marks on the App Store signing chain, checked beside RFC 5280: exactly leaf, intermediate and
/// root; the intermediate carries 1.2.840.113635.100.6.2.1 (Apple Worldwide Developer Relations) and the leaf
/// 1.2.840.113635.100.6.11.1 (App Store receipt signing).
struct AppleChainPolicy: VerifierPolicy {
    static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 2, 1]
    static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 11, 1]

    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "the chain has \(chain.count) certificates, not leaf, intermediate, root")
        }
        guard chain[0].extensions[oid: Self.leafMarker] != nil else {
            return .failsToMeetPolicy(reason: "the leaf is not an App Store signing certificate")
        }
        guard chain[1].extensions[oid: Self.intermediateMarker] != nil else {
            return .failsToMeetPolicy(reason: "the intermediate is not Apple's WWDR certificate authority")
        }
        return .meetsPolicy
    }
}
