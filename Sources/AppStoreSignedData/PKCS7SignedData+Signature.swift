import Crypto
import SwiftASN1
import X509

extension PKCS7SignedData {
    private static let sha1: ASN1ObjectIdentifier = [1, 3, 14, 3, 2, 26]
    private static let sha256: ASN1ObjectIdentifier = [2, 16, 840, 1, 101, 3, 4, 2, 1]
    private static let rsaEncryption: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 1]
    private static let sha1WithRSA: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 5]
    private static let sha256WithRSA: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 1, 11]
    private static let ecdsaWithSHA256: ASN1ObjectIdentifier = [1, 2, 840, 10_045, 4, 3, 2]
    private static let messageDigest: ASN1ObjectIdentifier = [1, 2, 840, 113_549, 1, 9, 4]

    /// The signer's certificate, once its signature over the content (or over the signed attributes, whose
    /// message digest must be the content's) checks out. The chain is the caller's to verify.
    func verifiedSigner() throws(SignedDataError) -> Certificate {
        guard
            let certificate = certificates.first(where: {
                Self.trimmed($0.serialNumber.bytes) == Self.trimmed(signer.serialNumber)
            })
        else { throw .untrustedChain("the signing certificate is not in the receipt") }
        let algorithm = try signatureAlgorithm()
        var signed = Array(content)
        if let attributes = signer.signedAttributes {
            guard let digest = try? Self.messageDigest(in: attributes), digest.elementsEqual(try contentDigest()) else {
                throw .badSignature("the signed attributes do not match the receipt's content")
            }
            // The signature covers the attributes encoded as a SET, not as the [0] they are stored in.
            signed = Array(attributes.encodedBytes)
            signed[0] = 0x31
        }
        guard certificate.publicKey.isValidSignature(signer.signature, for: signed, signatureAlgorithm: algorithm)
        else {
            throw .badSignature("the receipt's signature does not match its signing certificate")
        }
        return certificate
    }

    private func signatureAlgorithm() throws(SignedDataError) -> Certificate.SignatureAlgorithm {
        let (signature, digest) = (signer.signatureAlgorithm, signer.digestAlgorithm)
        if signature == Self.sha1WithRSA || (signature == Self.rsaEncryption && digest == Self.sha1) {
            return .sha1WithRSAEncryption
        }
        if signature == Self.sha256WithRSA || (signature == Self.rsaEncryption && digest == Self.sha256) {
            return .sha256WithRSAEncryption
        }
        if signature == Self.ecdsaWithSHA256 { return .ecdsaWithSHA256 }
        throw .untrustedChain("unsupported signature algorithm \(signature)")
    }

    private func contentDigest() throws(SignedDataError) -> [UInt8] {
        if signer.digestAlgorithm == Self.sha1 { return Array(Insecure.SHA1.hash(data: Array(content))) }
        if signer.digestAlgorithm == Self.sha256 { return Array(SHA256.hash(data: Array(content))) }
        throw .untrustedChain("unsupported digest algorithm \(signer.digestAlgorithm)")
    }

    /// The messageDigest attribute: Attribute { type OID, values SET { OCTET STRING } }.
    private static func messageDigest(in attributes: ASN1Node) throws -> ArraySlice<UInt8>? {
        for attribute in try children(attributes) {
            let digest = try BER.sequence(attribute, identifier: .sequence) { parts -> ArraySlice<UInt8>? in
                let type = try ASN1ObjectIdentifier(berEncoded: &parts)
                guard let values = parts.next(), type == messageDigest, let value = try children(values).first else {
                    while parts.next() != nil {}
                    return nil
                }
                return try octets(value)
            }
            if let digest { return digest }
        }
        return nil
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> { bytes.drop { $0 == 0 } }
}
