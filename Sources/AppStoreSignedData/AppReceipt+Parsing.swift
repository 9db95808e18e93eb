import Foundation
import SwiftASN1

extension AppReceipt {
    /// App receipts are tens of kilobytes; a body far larger is not one.
    static let maximumLength = 4 << 20

    /// Reads a receipt's fields without checking its signature or chain, so nothing read this way may be
    /// trusted: for a caller that only needs the transaction ids to ask Apple about, and trusts Apple's answer.
    public init(unverified receipt: Data) throws(SignedDataError) {
        try self.init(content: Self.signedData(receipt).content)
    }

    /// The receipt's PKCS#7 structure, size-checked.
    static func signedData(_ receipt: Data) throws(SignedDataError) -> PKCS7SignedData {
        guard receipt.count <= maximumLength else { throw .malformed("larger than 4 MiB") }
        do {
            return try PKCS7SignedData(ber: Array(receipt))
        } catch let error as ASN1Error {
            throw .malformed("not a PKCS#7 app receipt: \(error.inWords)")
        } catch {
            throw .malformed("not a PKCS#7 app receipt")
        }
    }

    /// Reads the receipt payload (the signed content of the PKCS#7), without checking any signature.
    init(content: ArraySlice<UInt8>) throws(SignedDataError) {
        do {
            try self.init(fields: try Self.fields(of: content))
        } catch let error as SignedDataError {
            throw error
        } catch let error as ASN1Error {
            throw .malformed("not an app receipt: \(error.inWords)")
        } catch {
            throw .malformed("not an app receipt")
        }
    }

    private init(fields: ReceiptFields) throws {
        guard let type = fields[0], let bundle = fields[2], let created = fields[12] else {
            throw SignedDataError.malformed("the receipt lacks its type, bundle id or creation date")
        }
        receiptType = try Self.string(type)
        bundleId = try Self.string(bundle)
        appVersion = try fields[3].map(Self.string)
        guard let creationDate = try Self.date(created) else { throw SignedDataError.malformed("no creation date") }
        self.creationDate = creationDate
        inAppPurchases = try fields.all(17).map { try InAppPurchase(fields: try Self.fields(of: $0)) }
    }

    /// `SET OF SEQUENCE { type INTEGER, version INTEGER, value OCTET STRING }`.
    static func fields(of bytes: ArraySlice<UInt8>) throws -> ReceiptFields {
        try BER.set(try BER.parse(bytes), identifier: .set) { attributes in
            var fields: [(type: Int, value: ArraySlice<UInt8>)] = []
            while let attribute = attributes.next() {
                fields.append(
                    try BER.sequence(attribute, identifier: .sequence) { parts in
                        let type = try Int(berEncoded: &parts)
                        _ = try Int(berEncoded: &parts)
                        return (type, try ASN1OctetString(berEncoded: &parts).bytes)
                    })
            }
            return ReceiptFields(fields: fields)
        }
    }

    static func string(_ value: ArraySlice<UInt8>) throws -> String {
        let node = try BER.parse(value)
        switch node.identifier {
        case .utf8String: return String(decoding: try ASN1UTF8String(berEncoded: node).bytes, as: UTF8.self)
        case .ia5String: return String(decoding: try ASN1IA5String(berEncoded: node).bytes, as: UTF8.self)
        default: throw SignedDataError.malformed("a text field has ASN.1 type \(node.identifier)")
        }
    }

    /// An RFC 3339 date in an IA5String; zero-length means absent.
    static func date(_ value: ArraySlice<UInt8>) throws -> Date? {
        let text = try string(value)
        guard !text.isEmpty else { return nil }
        guard let date = (try? Self.plain.parse(text)) ?? (try? Self.fractional.parse(text)) else {
            throw SignedDataError.malformed("a date field holds \(text)")
        }
        return date
    }

    static func integer(_ value: ArraySlice<UInt8>) throws -> Int64 { try Int64(berEncoded: try BER.parse(value)) }

    private static let plain = Date.ISO8601FormatStyle()
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}

/// The typed fields of a receipt or in-app record, in file order.
struct ReceiptFields {
    let fields: [(type: Int, value: ArraySlice<UInt8>)]

    subscript(type: Int) -> ArraySlice<UInt8>? { fields.first { $0.type == type }?.value }

    func all(_ type: Int) -> [ArraySlice<UInt8>] { fields.filter { $0.type == type }.map(\.value) }
}
