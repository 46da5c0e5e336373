#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where agg keeps records: a small protocol that applications choose a backend for (SQLite,
/// in memory, plain files, PostgreSQL), the way swift-log lets applications choose a
/// `LogHandler`. The library never picks one by itself.
///
/// ## Contract
///
/// Every backend must pass the conformance suite in `Tests/AggStoreTests`. In short:
///
/// - **Snapshots are atomic.** `beginSnapshot(of:)` starts a new remote snapshot of one
///   collection. Records appended to the writer are invisible until `commit(_:)`, which
///   replaces the collection's previous remote records and its `SyncState` in one step. If
///   the writer is aborted, or the process dies before commit, the previous snapshot is
///   exactly as it was. Memory use must not grow with the number of records appended.
/// - **Local records are never touched by a snapshot.** They change only through
///   `insertLocal`, `updateLocal` and `deleteLocal`, and only local records can be changed:
///   changing a remote record throws `StoreError` of kind `.notLocal`.
/// - **Sequence numbers** of local records are strictly increasing per source and never
///   reused, not even after a delete. A local record's key is `Record.localKey(sequence)`.
/// - **Order.** `records(matching:)` returns the merged view unless the query sorts: local
///   records first, newest (highest sequence) first, then remote records in the order the
///   source sent them. `forEachRecord(matching:_:)` delivers the same records in the same
///   order.
/// - **Inserts are all or nothing.** A local record and its image blob are stored together or
///   not at all.
/// - **Concurrency.** Every method may be called from several tasks at once. Backends that
///   live on disk must also let several processes use one store: writers wait for each other
///   (they do not fail), and readers are never blocked by a snapshot being written.
public protocol RecordStore: Sendable {
    /// A short description of where the data lives (`sqlite:/home/u/.local/share/agg/agg.sqlite`).
    var location: String { get }

    /// Starts writing a new remote snapshot of `collection`.
    func beginSnapshot(of collection: CollectionID) async throws -> any SnapshotWriter

    /// The state of `collection`'s last committed snapshot, or nil when it has none.
    func syncState(of collection: CollectionID) async throws -> SyncState?

    /// Every collection of `source` that has a committed snapshot.
    func collections(of source: String) async throws -> [CollectionID]

    /// Records matching `query`, in the merged view's order unless it sorts.
    func records(matching query: RecordQuery) async throws -> [Record]

    /// Hands the records `records(matching:)` would return to `body`, one at a time and in
    /// the same order, so that a caller writing them out holds one at a time. `body` may run
    /// while the store holds a lock: it must not call the store. A store that cannot do
    /// better gets the default, which collects them first; a query that sorts collects them
    /// in any store.
    func forEachRecord(matching query: RecordQuery, _ body: (Record) throws -> Void) async throws

    /// Records of `source` by origin, counted: remote ones in `collection`.
    func count(in collection: CollectionID) async throws -> (local: Int, remote: Int)

    /// The record with `key`: a local record of the source, or a remote one of `collection`.
    func record(key: String, in collection: CollectionID) async throws -> Record?

    /// Stores a new local record of `source`, with its image blob when given, and returns it
    /// with its sequence number and key.
    func insertLocal(source: String, draft: LocalRecordDraft, blob: Blob?) async throws -> Record

    /// Merges `changes` into the fields of the local record `key` (a null value removes a
    /// field) and returns the updated record; `searchField` names the field to index.
    func updateLocal(source: String, key: String, changes: JSONObject, searchField: String?) async throws -> Record

    /// Deletes the local record `key` and returns what it was.
    func deleteLocal(source: String, key: String) async throws -> Record

    /// The bytes of a stored blob.
    func blob(digest: String) async throws -> Data?
}

/// Receives the records of a snapshot being written. Nothing is visible until `commit`.
public protocol SnapshotWriter: Sendable {
    /// Appends records after those already appended.
    func append(_ records: [RemoteRecord]) async throws

    /// Makes the snapshot the collection's current one, with `state`; returns the number of
    /// records it holds.
    @discardableResult
    func commit(_ state: SyncState) async throws -> Int

    /// Drops everything appended; the previous snapshot stays.
    func abort() async
}

/// Image bytes to store with a local record, addressed by their SHA-256.
public struct Blob: Sendable, Hashable {
    /// Lowercase hex SHA-256 of `data`.
    public var digest: String
    /// The bytes.
    public var data: Data
    /// The image format (`jpeg`, `png`, `gif`, `webp`).
    public var format: String

    /// Creates a blob, computing its digest.
    public init(data: Data, format: String) {
        self.digest = SHA256.hexDigest(of: data)
        self.data = data
        self.format = format
    }
}

extension RecordStore {
    /// Collects the records first, then hands them to `body`.
    public func forEachRecord(matching query: RecordQuery, _ body: (Record) throws -> Void) async throws {
        for record in try await records(matching: query) { try body(record) }
    }

    /// Replaces `collection`'s snapshot with the records of `batches`, committing with the
    /// state `finalState` gives once the sequence has ended. If the sequence throws, nothing
    /// changes and the error is rethrown.
    @discardableResult
    public func replaceSnapshot<Batches: AsyncSequence>(
        of collection: CollectionID, with batches: Batches, finalState: @Sendable (Int) -> SyncState
    ) async throws -> Int where Batches.Element == [RemoteRecord] {
        let writer = try await beginSnapshot(of: collection)
        var count = 0
        do {
            for try await batch in batches {
                try await writer.append(batch)
                count += batch.count
            }
            return try await writer.commit(finalState(count))
        } catch {
            await writer.abort()
            throw error
        }
    }
}
