import Crypto
import SwiftASN1
import X509

/// What receipt validation needs from a PKCS#7 SignedData, read from BER: Apple's receipts are not strict DER
/// (unordered SETs, constructed OCTET STRINGs, indefinite lengths), so a strict CMS reader refuses them.
struct PKCS7SignedData {
    /// The signed content (the receipt payload).
    let content: ArraySlice<UInt8>
    let certificates: [Certificate]
    /// SHA-256 of the certificates as encoded, naming the chain in the verified-chain cache.
    let certificatesDigest: SHA256Digest
    let signer: SignerInfo

    struct SignerInfo {
        let serialNumber: ArraySlice<UInt8>
        let digestAlgorithm: ASN1ObjectIdentifier
        /// The `[0]` signed attributes as they were encoded, when present.
        let signedAttributes: ASN1Node?
        let signatureAlgorithm: ASN1ObjectIdentifier
        let signature: ArraySlice<UInt8>
    }

    /// ContentInfo { OID, [0] SignedData { version, digestAlgorithms, encapContentInfo { OID, [0] OCTET STRING },
    /// [0] certificates, [1] CRLs, signerInfos } }, with exactly one signer.
    init(ber bytes: [UInt8]) throws {
        (content, certificates, certificatesDigest, signer) = try BER.sequence(
            try BER.parse(bytes), identifier: .sequence
        ) { info in
            _ = try ASN1ObjectIdentifier(berEncoded: &info)
            return try BER.explicitlyTagged(&info, tagNumber: 0, tagClass: .contextSpecific) { signedData in
                try BER.sequence(signedData, identifier: .sequence) { parts in
                    _ = parts.next()  // version
                    _ = parts.next()  // digestAlgorithms
                    guard let encapsulated = parts.next() else {
                        throw ASN1Error.invalidASN1Object(reason: "no content")
                    }
                    let content = try BER.sequence(encapsulated, identifier: .sequence) { encapsulated in
                        _ = try ASN1ObjectIdentifier(berEncoded: &encapsulated)
                        return try BER.explicitlyTagged(&encapsulated, tagNumber: 0, tagClass: .contextSpecific) {
                            try Self.octets($0)
                        }
                    }
                    var certificates: [Certificate] = []
                    var digest = SHA256()
                    var signers: [SignerInfo] = []
                    while let node = parts.next() {
                        switch node.identifier {
                        case ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific):
                            certificates = try Self.children(node).map {
                                digest.update(data: Array($0.encodedBytes))
                                return try Certificate(derEncoded: Array($0.encodedBytes))
                            }
                        case .set:
                            signers = try Self.children(node).map(SignerInfo.init)
                        default:
                            continue  // CRLs
                        }
                    }
                    guard signers.count == 1 else {
                        throw ASN1Error.invalidASN1Object(reason: "\(signers.count) signers, not one")
                    }
                    return (content, certificates, digest.finalize(), signers[0])
                }
            }
        }
    }

    static func children(_ node: ASN1Node) throws -> [ASN1Node] {
        guard case .constructed(let nodes) = node.content else {
            throw ASN1Error.invalidASN1Object(reason: "expected a constructed node")
        }
        return Array(nodes)
    }

    /// An OCTET STRING's bytes, primitive or (BER) constructed from pieces.
    static func octets(_ node: ASN1Node) throws -> ArraySlice<UInt8> {
        switch node.content {
        case .primitive(let bytes): return bytes
        case .constructed(let pieces): return ArraySlice(try pieces.flatMap { try octets($0) })
        }
    }
}

extension PKCS7SignedData.SignerInfo {
    /// SignerInfo { version, issuerAndSerialNumber, digestAlgorithm, [0] signedAttrs, signatureAlgorithm,
    /// signature, [1] unsignedAttrs }.
    init(_ node: ASN1Node) throws {
        (serialNumber, digestAlgorithm, signedAttributes, signatureAlgorithm, signature) = try BER.sequence(
            node, identifier: .sequence
        ) { parts in
            _ = parts.next()  // version
            guard let identifier = parts.next(), let digest = parts.next(), var next = parts.next() else {
                throw ASN1Error.invalidASN1Object(reason: "short signer info")
            }
            let serial = try BER.sequence(identifier, identifier: .sequence) { issuerAndSerial in
                _ = issuerAndSerial.next()  // issuer
                guard let serial = issuerAndSerial.next(), case .primitive(let bytes) = serial.content else {
                    throw ASN1Error.invalidASN1Object(reason: "no serial number")
                }
                return bytes
            }
            var attributes: ASN1Node?
            if next.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
                attributes = next
                guard let following = parts.next() else { throw ASN1Error.invalidASN1Object(reason: "no signature") }
                next = following
            }
            guard let signature = parts.next() else { throw ASN1Error.invalidASN1Object(reason: "no signature") }
            while parts.next() != nil {}  // unsigned attributes
            return (
                serial, try Self.algorithm(digest), attributes, try Self.algorithm(next),
                try PKCS7SignedData.octets(signature)
            )
        }
    }

    private static func algorithm(_ node: ASN1Node) throws -> ASN1ObjectIdentifier {
        try BER.sequence(node, identifier: .sequence) { parts in
            let algorithm = try ASN1ObjectIdentifier(berEncoded: &parts)
            while parts.next() != nil {}  // parameters
            return algorithm
        }
    }
}
