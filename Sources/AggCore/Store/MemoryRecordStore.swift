#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A store that keeps everything in memory, for embedding and tests (`--store memory:`).
/// It follows the whole `RecordStore` contract within one process; nothing survives it.
public final class MemoryRecordStore: RecordStore {
    private struct Snapshot {
        var records: [Record]
        var state: SyncState
    }

    private struct State {
        var snapshots: [CollectionID: Snapshot] = [:]
        var local: [String: [Record]] = [:]
        var lastSequence: [String: Int] = [:]
        var blobs: [String: Data] = [:]
    }

    private let state = Mutex(State())

    /// An empty store.
    public init() {}

    public var location: String { "memory:" }

    public func beginSnapshot(of collection: CollectionID) async throws -> any SnapshotWriter {
        MemorySnapshotWriter(collection: collection, store: self)
    }

    fileprivate func commit(_ records: [Record], state syncState: SyncState, for collection: CollectionID) {
        state.withLock { $0.snapshots[collection] = Snapshot(records: records, state: syncState) }
    }

    public func syncState(of collection: CollectionID) async throws -> SyncState? {
        state.withLock { $0.snapshots[collection]?.state }
    }

    public func collections(of source: String) async throws -> [CollectionID] {
        state.withLock { $0.snapshots.keys.filter { $0.source == source }.sorted { $0.parameters < $1.parameters } }
    }

    public func records(matching query: RecordQuery) async throws -> [Record] {
        let (local, remote) = state.withLock { state in
            (state.local[query.collection.source] ?? [], state.snapshots[query.collection]?.records ?? [])
        }
        return query.evaluate(mergedRecords: local.reversed() + remote)
    }

    public func count(in collection: CollectionID) async throws -> (local: Int, remote: Int) {
        state.withLock { ($0.local[collection.source]?.count ?? 0, $0.snapshots[collection]?.records.count ?? 0) }
    }

    public func record(key: String, in collection: CollectionID) async throws -> Record? {
        state.withLock { state in
            state.local[collection.source]?.first { $0.key == key }
                ?? state.snapshots[collection]?.records.first { $0.key == key }
        }
    }

    public func insertLocal(source: String, draft: LocalRecordDraft, blob: Blob?) async throws -> Record {
        state.withLock { state in
            let sequence = (state.lastSequence[source] ?? 0) + 1
            state.lastSequence[source] = sequence
            if let blob { state.blobs[blob.digest] = blob.data }
            let now = Date()
            let record = Record(
                source: source, key: Record.localKey(sequence), origin: .local, sequence: sequence,
                fields: draft.fields, image: draft.image, createdAt: now, updatedAt: now)
            state.local[source, default: []].append(record)
            return record
        }
    }

    public func updateLocal(source: String, key: String, changes: JSONObject, searchField: String?) async throws -> Record {
        try state.withLock { (state) throws(StoreError) -> Record in
            guard let index = state.local[source]?.firstIndex(where: { $0.key == key }) else {
                throw Self.missing(key: key, source: source, state: state)
            }
            var record = state.local[source]![index]
            record.fields.merge(changes)
            record.updatedAt = Date()
            state.local[source]![index] = record
            return record
        }
    }

    public func deleteLocal(source: String, key: String) async throws -> Record {
        try state.withLock { (state) throws(StoreError) -> Record in
            guard let index = state.local[source]?.firstIndex(where: { $0.key == key }) else {
                throw Self.missing(key: key, source: source, state: state)
            }
            return state.local[source]!.remove(at: index)
        }
    }

    private static func missing(key: String, source: String, state: State) -> StoreError {
        let isRemote = state.snapshots.contains { $0.key.source == source && $0.value.records.contains { $0.key == key } }
        return isRemote ? .notLocal(source: source, key: key) : .notFound(source: source, key: key)
    }

    public func blob(digest: String) async throws -> Data? {
        state.withLock { $0.blobs[digest] }
    }
}

/// Collects a snapshot for `MemoryRecordStore`; the store sees it only on commit.
private final class MemorySnapshotWriter: SnapshotWriter {
    private let collection: CollectionID
    private let store: MemoryRecordStore
    private let pending = Mutex<[Record]>([])

    init(collection: CollectionID, store: MemoryRecordStore) {
        self.collection = collection
        self.store = store
    }

    func append(_ records: [RemoteRecord]) async throws {
        let now = Date()
        let converted = records.map { remote in
            Record(source: collection.source, key: remote.key, origin: .remote, fields: remote.fields,
                   raw: remote.raw, image: remote.imageURL.map(ImageReference.url), fetchedAt: now)
        }
        pending.withLock { $0 += converted }
    }

    func commit(_ state: SyncState) async throws -> Int {
        let records = pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
        store.commit(records, state: state, for: collection)
        return records.count
    }

    func abort() async {
        pending.withLock { $0 = [] }
    }
}

extension JSONObject {
    /// Sets every member of `changes`; a null value removes the member instead.
    public mutating func merge(_ changes: JSONObject) {
        for (key, value) in changes {
            self[key] = value.isNull ? nil : value
        }
    }
}
