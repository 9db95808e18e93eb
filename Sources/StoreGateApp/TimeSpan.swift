import Foundation

/// A span of time as the command line writes it: a number and `m`, `h` or `d`.
struct TimeSpan: Sendable {
    let seconds: TimeInterval

    init?(_ text: String) {
        let units: [Character: Double] = ["m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let count = Double(text.dropLast()), count >= 0 else {
            return nil
        }
        seconds = count * unit
    }
}
