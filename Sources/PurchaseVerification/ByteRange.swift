import Foundation

/// A single `Range: bytes=...` request against a body of known size (RFC 9110 14.1.2).
package enum ByteRange: Equatable {
    /// No usable range header: send everything (also for multiple ranges, which we do not serve as multipart).
    case whole
    /// Send `offset..<offset+length` as 206.
    case part(offset: Int, length: Int)
    /// The range cannot be satisfied: 416.
    case unsatisfiable

    package init(header: String?, size: Int) {
        guard let header, header.hasPrefix("bytes="), !header.contains(",") else {
            self = .whole
            return
        }
        let spec = header.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let bounds = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2 else {
            self = .whole
            return
        }
        let first = Int(bounds[0]), last = Int(bounds[1])
        switch (bounds[0].isEmpty, bounds[1].isEmpty) {
        case (true, false):  // the last N bytes
            guard let suffix = last, suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .part(offset: max(0, size - suffix), length: min(suffix, size))
        case (false, _):
            guard let start = first, start >= 0, bounds[1].isEmpty || (last ?? -1) >= start else {
                self = .whole  // syntactically invalid ranges are ignored
                return
            }
            guard start < size else {
                self = .unsatisfiable
                return
            }
            let end = min(last ?? (size - 1), size - 1)
            self = .part(offset: start, length: end - start + 1)
        default:
            self = .whole
        }
    }
}
