import AggCore
import AggFileStore
import AggSQLite
import AggTestSupport
import Foundation
import Testing

/// The behaviour every `RecordStore` must have. A new backend proves itself by being added
/// to `Backend` and passing every test here.
enum Backend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case memory, sqlite, file

    var testDescription: String { rawValue }

    /// A fresh, empty store and the folder to remove afterwards.
    func makeStore() throws -> (any RecordStore, TemporaryDirectory) {
        let folder = try TemporaryDirectory()
        switch self {
        case .memory: return (MemoryRecordStore(), folder)
        case .sqlite: return (try SQLiteRecordStore(path: folder.path + "/agg.sqlite"), folder)
        case .file: return (try FileRecordStore(directory: folder.path + "/store"), folder)
        }
    }
}

struct SnapshotFailure: Error {}

func remote(_ key: String, _ name: String, extra: [(String, JSONValue)] = []) -> RemoteRecord {
    let fields = JSONObject([("name", .string(name))] + extra)
    return RemoteRecord(key: key, fields: fields, raw: .object(fields), imageURL: "https://example.org/\(key).jpg",
                        searchText: TextFolding.fold(name))
}

func state(_ count: Int, reason: String = "last page") -> SyncState {
    SyncState(syncedAt: Date(timeIntervalSince1970: 1_700_000_000), stopReason: reason, recordCount: count, pagesFetched: 1)
}

/// Batches as an async sequence, optionally failing after some of them.
func batches(_ batches: [[RemoteRecord]], failingAfter: Int? = nil) -> AsyncThrowingStream<[RemoteRecord], any Error> {
    AsyncThrowingStream { continuation in
        for (index, batch) in batches.enumerated() {
            if let failingAfter, index == failingAfter {
                continuation.finish(throwing: SnapshotFailure())
                return
            }
            continuation.yield(batch)
        }
        continuation.finish()
    }
}

@Suite struct StoreConformanceTests {
    static let zoo = CollectionID(source: "zoo")

    func keys(_ store: any RecordStore, _ query: RecordQuery = RecordQuery(collection: zoo, searchField: "name")) async throws -> [String] {
        try await store.records(matching: query).map(\.key)
    }

    @Test(arguments: Backend.allCases)
    func aSnapshotReplacesThePreviousOneInOrder(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("1", "a"), remote("2", "b")], [remote("3", "c")]])) { state($0) }
        #expect(try await keys(store) == ["1", "2", "3"])
        try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("9", "z"), remote("8", "y")]])) { state($0) }
        #expect(try await keys(store) == ["9", "8"])
        let synced = try #require(try await store.syncState(of: Self.zoo))
        #expect(synced.recordCount == 2)
        #expect(synced.stopReason == "last page")
        #expect(synced.syncedAt == Date(timeIntervalSince1970: 1_700_000_000))
        let record = try #require(try await store.record(key: "9", in: Self.zoo))
        #expect(record.origin == .remote)
        #expect(record.fields["name"] == .string("z"))
        #expect(record.raw?["name"] == .string("z"))
        #expect(record.image == .url("https://example.org/9.jpg"))
    }

    @Test(arguments: Backend.allCases)
    func aFailingSequenceLeavesThePreviousSnapshot(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("1", "a"), remote("2", "b")]])) { state($0) }
        await #expect(throws: SnapshotFailure.self) {
            try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("7", "x")], [remote("8", "y")]], failingAfter: 1)) { state($0) }
        }
        #expect(try await keys(store) == ["1", "2"])
        #expect(try await store.syncState(of: Self.zoo)?.recordCount == 2)
    }

    @Test(arguments: Backend.allCases)
    func anUncommittedSnapshotIsInvisibleAndAbortKeepsTheOldOne(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("1", "a")]])) { state($0) }
        let writer = try await store.beginSnapshot(of: Self.zoo)
        try await writer.append([remote("5", "e"), remote("6", "f")])
        #expect(try await keys(store) == ["1"])
        await writer.abort()
        #expect(try await keys(store) == ["1"])
        let second = try await store.beginSnapshot(of: Self.zoo)
        try await second.append([remote("5", "e")])
        #expect(try await second.commit(state(1)) == 1)
        #expect(try await keys(store) == ["5"])
    }

    @Test(arguments: Backend.allCases)
    func localRecordsComeFirstNewestFirstAndSurviveSyncs(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("1", "a"), remote("2", "b")]])) { state($0) }
        let first = try await store.insertLocal(source: "zoo", draft: LocalRecordDraft(fields: ["name": "石虎"]), blob: nil)
        let second = try await store.insertLocal(source: "zoo", draft: LocalRecordDraft(fields: ["name": "山貓"]), blob: nil)
        #expect(first.key == "local-1" && first.sequence == 1 && first.origin == .local)
        #expect(second.key == "local-2")
        #expect(try await keys(store) == ["local-2", "local-1", "1", "2"])
        try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("3", "c")]])) { state($0) }
        #expect(try await keys(store) == ["local-2", "local-1", "3"])
        let counts = try await store.count(in: Self.zoo)
        #expect(counts.local == 2 && counts.remote == 1)
    }

    @Test(arguments: Backend.allCases)
    func sequenceNumbersAreNeverReused(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        _ = try await store.insertLocal(source: "faces", draft: LocalRecordDraft(fields: ["name": "A"]), blob: nil)
        let second = try await store.insertLocal(source: "faces", draft: LocalRecordDraft(fields: ["name": "B"]), blob: nil)
        _ = try await store.deleteLocal(source: "faces", key: second.key)
        let third = try await store.insertLocal(source: "faces", draft: LocalRecordDraft(fields: ["name": "C"]), blob: nil)
        #expect(third.sequence == 3)
        let other = try await store.insertLocal(source: "zoo", draft: LocalRecordDraft(fields: ["name": "D"]), blob: nil)
        #expect(other.sequence == 1)
    }

    @Test(arguments: Backend.allCases)
    func onlyLocalRecordsCanBeChanged(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("1", "a")]])) { state($0) }
        let local = try await store.insertLocal(source: "zoo", draft: LocalRecordDraft(fields: ["name": "a", "note": "x"]), blob: nil)
        let updated = try await store.updateLocal(source: "zoo", key: local.key, changes: ["name": "renamed", "note": .null], searchField: "name")
        #expect(updated.fields == ["name": "renamed"])
        #expect(try await store.record(key: local.key, in: Self.zoo)?.fields["name"] == .string("renamed"))
        let notLocal = await #expect(throws: StoreError.self) {
            try await store.updateLocal(source: "zoo", key: "1", changes: ["name": "x"], searchField: nil)
        }
        #expect(notLocal?.kind == .notLocal)
        let deleteRemote = await #expect(throws: StoreError.self) { try await store.deleteLocal(source: "zoo", key: "1") }
        #expect(deleteRemote?.kind == .notLocal)
        let missing = await #expect(throws: StoreError.self) { try await store.deleteLocal(source: "zoo", key: "local-99") }
        #expect(missing?.kind == .notFound)
        let deleted = try await store.deleteLocal(source: "zoo", key: local.key)
        #expect(deleted.fields["name"] == .string("renamed"))
        #expect(try await keys(store) == ["1"])
    }

    @Test(arguments: Backend.allCases)
    func blobsAreStoredWithTheirRecord(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        let blob = Blob(data: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]), format: "png")
        let record = try await store.insertLocal(
            source: "faces", draft: LocalRecordDraft(fields: ["name": "Ada"], image: .blob(blob.digest)), blob: blob)
        #expect(record.image == .blob(blob.digest))
        #expect(try await store.blob(digest: blob.digest) == blob.data)
        #expect(try await store.record(key: record.key, in: CollectionID(source: "faces"))?.image == .blob(blob.digest))
        #expect(try await store.blob(digest: String(repeating: "0", count: 64)) == nil)
    }

    @Test(arguments: Backend.allCases)
    func parameterisedCollectionsAreSeparate(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        let taipei = CollectionID(source: "flickr", parameters: ["lat": "25.03", "lon": "121.56"])
        let tokyo = CollectionID(source: "flickr", parameters: ["lon": "139.69", "lat": "35.68"])
        #expect(tokyo.parameters == "lat=35.68&lon=139.69")
        try await store.replaceSnapshot(of: taipei, with: batches([[remote("t1", "a")]])) {
            SyncState(syncedAt: Date(), stopReason: "max pages", recordCount: $0, pagesFetched: 1, totalPages: 400, currentPage: 3)
        }
        try await store.replaceSnapshot(of: tokyo, with: batches([[remote("k1", "b"), remote("k2", "c")]])) { state($0) }
        #expect(try await keys(store, RecordQuery(collection: taipei)) == ["t1"])
        #expect(try await keys(store, RecordQuery(collection: tokyo)) == ["k1", "k2"])
        let taipeiState = try #require(try await store.syncState(of: taipei))
        #expect(taipeiState.totalPages == 400 && taipeiState.currentPage == 3)
        #expect(try await store.collections(of: "flickr").map(\.parameters) == [taipei.parameters, tokyo.parameters])
    }

    @Test(arguments: Backend.allCases)
    func bundledProvenanceIsRemembered(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        try await store.replaceSnapshot(of: Self.zoo, with: batches([[remote("1", "a")]])) {
            SyncState(syncedAt: Date(), stopReason: "bundled", recordCount: $0, pagesFetched: 1, provenance: .bundledSnapshot(recorded: "2026-03-25"))
        }
        #expect(try await store.syncState(of: Self.zoo)?.provenance == .bundledSnapshot(recorded: "2026-03-25"))
    }

    @Test(arguments: Backend.allCases)
    func concurrentInsertsGetDistinctSequenceNumbers(backend: Backend) async throws {
        let (store, folder) = try backend.makeStore()
        defer { folder.remove() }
        let sequences = try await withThrowingTaskGroup(of: Int.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try await store.insertLocal(source: "faces", draft: LocalRecordDraft(fields: ["name": .string("n\(index)")]), blob: nil).sequence!
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(Set(sequences) == Set(1...20))
    }
}
