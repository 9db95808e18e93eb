import struct Foundation.Date

/// A restore-sync that named a purchase: when, and by which request. Recorded whether or not it brought anything
/// new (a restore that brings nothing new writes no purchase or transaction), so that support sees every restore.
package struct Restore: Sendable, Equatable {
    package let environment: String
    package let originalTransactionId: String
    package let requestId: String
    package let restoredAt: Date

    package init(environment: String, originalTransactionId: String, requestId: String, restoredAt: Date = Date()) {
        self.environment = environment
        self.originalTransactionId = originalTransactionId
        self.requestId = requestId
        self.restoredAt = restoredAt
    }
}
