import AggCore
@testable import AggSQLite
import AggTestSupport
import Foundation
import Testing

@Suite struct SQLiteSnapshotFormatTests {
    @Test func aSnapshotOfAnotherFormatIsRefusedWithWhatToDo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.path + "/agg.sqlite"
        let store = try SQLiteRecordStore(path: path)
        let zoo = CollectionID(source: "zoo")
        try await store.replaceSnapshot(of: zoo, with: batches([[remote("1", "a")]])) { state($0) }
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: path + "-snapshots").first)
        try SQLiteDatabase(path: path + "-snapshots/" + file, mode: .privateBulk).execute("PRAGMA user_version = 1")
        do {
            _ = try await store.records(matching: RecordQuery(collection: zoo))
            Issue.record("an old snapshot was read")
        } catch let error as StoreError {
            #expect(error.description.contains("run 'agg sync zoo'"))
        }
    }
}
