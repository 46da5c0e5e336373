/// A store operation that could not be done, for a reason the caller can act on.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Hashable {
        /// No record has this key.
        case notFound
        /// The record is remote; only local records can be changed.
        case notLocal
        /// The backend failed (I/O, corruption, locking).
        case backend
        /// The store URL is not understood.
        case unsupportedLocation
    }

    /// What kind of failure.
    public var kind: Kind
    /// The message for people.
    public var description: String

    /// Creates a store error.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// No record `key` in `source`.
    package static func notFound(source: String, key: String) -> StoreError {
        StoreError(.notFound, "no record '\(key)' in source '\(source)'")
    }

    /// `key` is a remote record of `source`, which cannot be changed.
    package static func notLocal(source: String, key: String) -> StoreError {
        StoreError(.notLocal, "'\(key)' in source '\(source)' is a remote record; only your own records (keys like local-1) can be changed or deleted")
    }
}
