import AggCore
import AggSQLite
import AggTestSupport
import Foundation
import Testing

@Suite struct SQLiteConcurrencyTests {
    @Test func aReaderIsNotBlockedByASnapshotBeingWritten() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.path + "/agg.sqlite"
        let writerStore = try SQLiteRecordStore(path: path)
        let readerStore = try SQLiteRecordStore(path: path)
        let zoo = CollectionID(source: "zoo")
        try await writerStore.replaceSnapshot(of: zoo, with: batches([[remote("1", "a")]])) { state($0) }
        let writer = try await writerStore.beginSnapshot(of: zoo)
        try await writer.append((0..<1000).map { remote("n\($0)", "x") })
        #expect(try await readerStore.records(matching: RecordQuery(collection: zoo)).map(\.key) == ["1"])
        _ = try await readerStore.insertLocal(source: "zoo", draft: LocalRecordDraft(fields: ["name": "b"]), blob: nil)
        try await writer.commit(state(1000))
        #expect(try await readerStore.count(in: zoo) == (local: 1, remote: 1000))
    }

    /// The write-ahead log and its index stay when the last connection closes, so that a
    /// command (a query too) does not create and delete two files in the data folder each time.
    @Test func theWriteAheadLogOutlivesTheStore() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.path + "/agg.sqlite"
        do {
            let store = try SQLiteRecordStore(path: path)
            _ = try await store.records(matching: RecordQuery(collection: CollectionID(source: "zoo")))
        }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(FileManager.default.fileExists(atPath: path + "-shm"))
    }

    @Test func leftoversOfAKilledSyncAreInvisibleAndCleanedUp() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.path + "/agg.sqlite"
        let zoo = CollectionID(source: "zoo")
        do {
            let store = try SQLiteRecordStore(path: path)
            try await store.replaceSnapshot(of: zoo, with: batches([[remote("1", "a")]])) { state($0) }
            let writer = try await store.beginSnapshot(of: zoo)
            try await writer.append([remote("orphan", "x")])
        }
        let snapshotFiles = { try FileManager.default.contentsOfDirectory(atPath: path + "-snapshots").sorted() }
        #expect(try snapshotFiles().count == 2)
        let reopened = try SQLiteRecordStore(path: path)
        #expect(try await reopened.records(matching: RecordQuery(collection: zoo)).map(\.key) == ["1"])
        try await reopened.replaceSnapshot(of: zoo, with: batches([[remote("2", "b")]])) { state($0) }
        #expect(try await reopened.records(matching: RecordQuery(collection: zoo)).map(\.key) == ["2"])
        #expect(try snapshotFiles() == ["collection-1-generation-3.sqlite"])
    }
}
