import SwiftASN1

extension ASN1Error {
    /// What went wrong, in words for an operator's log and a client's error message: the library's own
    /// description ends with its source file and line, which mean nothing to either.
    var inWords: String {
        switch code {
        case .truncatedASN1Field: "the data ends in the middle of a field"
        case .invalidASN1Object: "a field does not hold what it should"
        case .unexpectedFieldType: "a field has another type than expected"
        case .invalidASN1IntegerEncoding: "a number is encoded wrongly"
        case .unsupportedFieldLength: "a field is longer than any receipt's"
        case .invalidStringRepresentation: "a text field is not valid text"
        case .tooFewOIDComponents: "an object identifier is malformed"
        default: "it is not DER or BER data"
        }
    }
}
