import GatewayCore
import Synchronization

/// Answers counted by HTTP status, written by one thread at a time and read by any: the statuses the gateway
/// answers have a slot each (a relaxed atomic add, no hashing, no lock); any other status goes to a locked
/// table. Embedded in the counters of a worker and in each thread's route tallies.
struct StatusCounts: ~Copyable, Sendable {
    /// The statuses with their own slot, in slot order.
    static let common = [200, 201, 204, 206, 304, 400, 401, 403, 404, 405, 409, 413, 416, 422, 429, 500, 502, 503, 504]

    private let slots: InlineArray<19, Atomic<Int>> = InlineArray { _ in Atomic(0) }
    private let others = Mutex<[Int: Int]>([:])

    /// Counts one answer with `status`.
    func add(_ status: Int) {
        if let slot = Self.slot(of: status) {
            slots[slot].wrappingAdd(1, ordering: .relaxed)
        } else {
            others.withLock { $0[status, default: 0] += 1 }
        }
    }

    /// Every status counted at least once, with its count.
    var all: [Int: Int] {
        var all = others.withLock { $0 }
        for (slot, status) in Self.common.enumerated() {
            let count = slots[slot].load(ordering: .relaxed)
            if count > 0 { all[status] = count }
        }
        return all
    }

    /// A switch, not a lookup: this runs for every answer.
    private static func slot(of status: Int) -> Int? {
        switch status {
        case 200: 0
        case 201: 1
        case 204: 2
        case 206: 3
        case 304: 4
        case 400: 5
        case 401: 6
        case 403: 7
        case 404: 8
        case 405: 9
        case 409: 10
        case 413: 11
        case 416: 12
        case 422: 13
        case 429: 14
        case 500: 15
        case 502: 16
        case 503: 17
        case 504: 18
        default: nil
        }
    }
}
