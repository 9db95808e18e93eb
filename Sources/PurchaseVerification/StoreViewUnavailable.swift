/// Why a store could not give its view of a purchase to support, in a sentence a support person can act on
/// (never an HTTP status or an error code): the store module that asked says what is true of its store.
package struct StoreViewUnavailable: Error, Sendable, Equatable {
    package let sentence: String

    package init(_ sentence: String) { self.sentence = sentence }
}
