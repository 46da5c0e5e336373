import AggCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
internal import CSQLite

/// The default store: SQLite (`--store sqlite:PATH`, default `$XDG_DATA_HOME/agg/agg.sqlite`).
///
/// The shared database (WAL mode, so readers are never blocked and several `agg` processes
/// can write it) holds collections, local records, sequence numbers and blobs. Each remote
/// snapshot is a SQLite file of its own in `PATH-snapshots/`: a sync streams records into a
/// new file nobody reads yet, in batches, then commits by pointing its collection at the file
/// in one small transaction and deleting the files of older snapshots. A sync that fails or
/// is killed leaves only an unreferenced file, which the next commit of that collection
/// deletes. Memory stays flat however many records arrive, and a snapshot is written once,
/// with no journal.
///
/// The class is `@unchecked Sendable` because its only mutable state, the connection, is used
/// under `lock` and nowhere else.
public final class SQLiteRecordStore: RecordStore, @unchecked Sendable {
    private let lock = Mutex(())
    private let connection: SQLiteDatabase
    /// The shared database file.
    public let path: String
    /// The folder of snapshot files.
    let snapshotFolder: String

    /// Opens or creates the store at `path`, creating its folder when needed.
    public init(path: String) throws {
        let folder = path.parentFolderPath
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let connection = try SQLiteDatabase(path: path)
        try SQLiteSchema.migrate(connection)
        self.path = path
        self.connection = connection
        self.snapshotFolder = path + "-snapshots"
    }

    public var location: String { "sqlite:\(path)" }

    /// Runs `body` with the shared connection, one caller at a time.
    func withDatabase<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try lock.withLock { _ in try body(connection) }
    }

    /// The file name of a collection's snapshot generation.
    static func snapshotFileName(collection: Int64, generation: Int64) -> String {
        "collection-\(collection)-generation-\(generation).sqlite"
    }

    public func beginSnapshot(of collection: CollectionID) async throws -> any SnapshotWriter {
        let (collectionID, generation) = try withDatabase { db in
            try db.transaction(writing: true) {
                let id = try Self.collectionID(collection, in: db, create: true)!
                let statement = try db.prepare("UPDATE collections SET next_generation = next_generation + 1 WHERE id = ? RETURNING next_generation")
                try statement.bind([.integer(id)])
                _ = try statement.step()
                return (id, statement.integer(0))
            }
        }
        try FileManager.default.createDirectory(atPath: snapshotFolder, withIntermediateDirectories: true)
        return try SQLiteSnapshotWriter(
            store: self, collection: collectionID, generation: generation,
            file: snapshotFolder + "/" + Self.snapshotFileName(collection: collectionID, generation: generation))
    }

    /// The row id of a collection, created on demand.
    static func collectionID(_ collection: CollectionID, in db: SQLiteDatabase, create: Bool) throws -> Int64? {
        let select = try db.prepare("SELECT id FROM collections WHERE source = ? AND parameters = ?")
        try select.bind([.text(collection.source), .text(collection.parameters)])
        if try select.step() { return select.integer(0) }
        guard create else { return nil }
        let insert = try db.prepare("INSERT INTO collections (source, parameters) VALUES (?, ?) RETURNING id")
        try insert.bind([.text(collection.source), .text(collection.parameters)])
        _ = try insert.step()
        return insert.integer(0)
    }

    /// Points `collection` at its new snapshot file with `state`, then deletes the files of
    /// older generations (a reader that has one open keeps reading it).
    func commit(collection: Int64, generation: Int64, file: String, state: SyncState, count: Int) throws {
        try withDatabase { db in
            try db.transaction(writing: true) {
                try db.prepare("""
                    UPDATE collections SET generation = ?, snapshot_file = ?, synced_at = ?, stop_reason = ?, record_count = ?,
                        pages_fetched = ?, total_pages = ?, current_page = ?, provenance = ?
                    WHERE id = ?
                    """).bind([
                        .integer(generation), .text(file.lastPathComponentName), .real(state.syncedAt.timeIntervalSince1970),
                        .text(state.stopReason), .integer(Int64(count)), .integer(Int64(state.pagesFetched)),
                        state.totalPages.map { .integer(Int64($0)) } ?? .null, state.currentPage.map { .integer(Int64($0)) } ?? .null,
                        .text(state.provenanceText), .integer(collection),
                    ]).run()
            }
        }
        let prefix = "collection-\(collection)-generation-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: snapshotFolder)) ?? [] where name.hasPrefix(prefix) {
            guard let older = Int64(name.dropFirst(prefix.count).prefix { $0.isNumber }), older < generation else { continue }
            try? FileManager.default.removeItem(atPath: snapshotFolder + "/" + name)
        }
    }

    /// The committed snapshot file of `collection`, or nil.
    func snapshotFile(_ collection: CollectionID, in db: SQLiteDatabase) throws -> String? {
        let statement = try db.prepare("SELECT snapshot_file FROM collections WHERE source = ? AND parameters = ? AND generation IS NOT NULL")
        try statement.bind([.text(collection.source), .text(collection.parameters)])
        guard try statement.step(), let name = statement.text(0) else { return nil }
        return snapshotFolder + "/" + name
    }

    /// A read-only connection to the committed snapshot of `collection`, or nil.
    func openSnapshot(_ collection: CollectionID) throws -> SQLiteDatabase? {
        guard let file = try withDatabase({ try snapshotFile(collection, in: $0) }) else { return nil }
        let snapshot = try SQLiteDatabase(path: file, mode: .readOnly)
        guard try snapshot.userVersion == SnapshotFileSchema.version else {
            throw StoreError(.backend, "the stored snapshot of '\(collection.source)' was written by another version of agg; run 'agg sync \(collection.source)' to fetch it again")
        }
        return snapshot
    }

    public func syncState(of collection: CollectionID) async throws -> SyncState? {
        try withDatabase { db in
            let statement = try db.prepare("""
                SELECT synced_at, stop_reason, record_count, pages_fetched, total_pages, current_page, provenance
                FROM collections WHERE source = ? AND parameters = ? AND generation IS NOT NULL
                """)
            try statement.bind([.text(collection.source), .text(collection.parameters)])
            guard try statement.step() else { return nil }
            return SyncState(
                syncedAt: Date(timeIntervalSince1970: statement.real(0)), stopReason: statement.text(1) ?? "",
                recordCount: Int(statement.integer(2)), pagesFetched: Int(statement.integer(3)),
                totalPages: statement.isNull(4) ? nil : Int(statement.integer(4)),
                currentPage: statement.isNull(5) ? nil : Int(statement.integer(5)),
                provenance: SyncState.provenance(fromText: statement.text(6) ?? "network"))
        }
    }

    public func collections(of source: String) async throws -> [CollectionID] {
        try withDatabase { db in
            let statement = try db.prepare("SELECT parameters FROM collections WHERE source = ? AND generation IS NOT NULL ORDER BY parameters")
            try statement.bind([.text(source)])
            var result: [CollectionID] = []
            while try statement.step() {
                var collection = CollectionID(source: source)
                collection.parameters = statement.text(0) ?? ""
                result.append(collection)
            }
            return result
        }
    }

    public func records(matching query: RecordQuery) async throws -> [Record] {
        var matched: [Record] = []
        try scan(query, slicing: query.sort.isEmpty) { matched.append($0) }
        return query.sort.isEmpty ? matched : query.sortAndSlice(matched)
    }

    /// Streams the records as they are read, unless the query sorts (then they are collected
    /// and sorted first).
    public func forEachRecord(matching query: RecordQuery, _ body: (Record) throws -> Void) async throws {
        guard query.sort.isEmpty else {
            for record in try await records(matching: query) { try body(record) }
            return
        }
        try scan(query, slicing: true, body)
    }

    /// Reads the records that match `query` in the merged view's order, local ones first,
    /// handing each to `deliver`; with `slicing`, skips `offset` of them and stops after
    /// `limit` (without, the caller sorts and slices).
    private func scan(_ query: RecordQuery, slicing: Bool, _ deliver: (Record) throws -> Void) throws {
        var skipped = 0
        var delivered = 0
        let prefix = query.indexedPrefix
        func consume(_ record: Record) throws -> Bool {
            guard query.matches(record) else { return true }
            if slicing {
                if skipped < query.offset { skipped += 1; return true }
                if let limit = query.limit, delivered >= limit { return false }
            }
            try deliver(record)
            delivered += 1
            return true
        }
        let snapshot = query.origin == .local ? nil : try openSnapshot(query.collection)
        var more = true
        if query.origin != .remote {
            try withDatabase { db in
                var sql = "SELECT sequence, key, fields, image, created_at, updated_at FROM local_records WHERE source = ?"
                var values: [SQLiteValue] = [.text(query.collection.source)]
                Self.narrow(&sql, &values, prefix: prefix, substrings: query.indexedSubstrings, fullText: false)
                let statement = try db.prepare(sql + " ORDER BY sequence DESC")
                try statement.bind(values)
                while more, try statement.step() {
                    more = try consume(try Self.localRecord(statement, source: query.collection.source))
                }
            }
        }
        if more, let snapshot {
            let selectRecords = SnapshotFileSchema.selectRecords(includingRaw: query.includeRaw)
            var sql = "SELECT position FROM records WHERE 1"
            var values: [SQLiteValue] = []
            Self.narrow(&sql, &values, prefix: prefix, substrings: query.indexedSubstrings, fullText: true)
            if values.isEmpty {
                let statement = try snapshot.prepare(selectRecords + " ORDER BY r.position")
                while more, try statement.step() {
                    more = try consume(try Self.remoteRecord(statement, source: query.collection.source, includeRaw: query.includeRaw))
                }
            } else {
                // Narrowed: sort only the matching positions (from the index), then read each
                // row as it is consumed, so a limit stops before whole rows are read or sorted.
                let positions = try snapshot.prepare(sql + " ORDER BY position")
                try positions.bind(values)
                let row = try snapshot.prepare(selectRecords + " WHERE r.position = ?")
                while more, try positions.step() {
                    try row.bind([.integer(positions.integer(0))])
                    guard try row.step() else { continue }
                    more = try consume(try Self.remoteRecord(row, source: query.collection.source, includeRaw: query.includeRaw))
                }
            }
        }
    }

    /// Adds conditions on the folded search column: an index range for a prefix; for
    /// substrings, the trigram full-text index when there is one (`fullText`) and the
    /// substring has three characters or more, else `instr`. Rows still pass through
    /// `RecordQuery.matches` afterwards.
    static func narrow(_ sql: inout String, _ values: inout [SQLiteValue], prefix: String?, substrings: [String], fullText: Bool) {
        if let prefix {
            sql += " AND search >= ? AND search < ?"
            values += [.text(prefix), .text(prefix + "\u{10FFFF}")]
        }
        for substring in substrings {
            if fullText, substring.unicodeScalars.count >= 3 {
                sql += " AND position IN (SELECT rowid FROM records_search WHERE records_search MATCH ?)"
                values.append(.text("\"" + substring.replacingAll("\"", with: "\"\"") + "\""))
            } else {
                sql += " AND instr(search, ?) > 0"
                values.append(.text(substring))
            }
        }
    }

    static func json(_ statement: SQLiteStatement, _ column: Int32) throws -> JSONValue {
        try statement.withBytes(column) { bytes in try JSONParser.parse(buffer: bytes) } ?? .null
    }

    static func localRecord(_ statement: SQLiteStatement, source: String) throws -> Record {
        let (fields, text) = try fieldsWithText(statement, 2)
        var record = Record(
            source: source, key: statement.text(1) ?? "", origin: .local, sequence: Int(statement.integer(0)),
            fields: fields,
            image: statement.text(3).flatMap(ImageReference.init(stored:)),
            createdAt: Date(timeIntervalSince1970: statement.real(4)),
            updatedAt: Date(timeIntervalSince1970: statement.real(5)))
        if let text { record.keepFieldsText(text) }
        return record
    }

    static func remoteRecord(_ statement: SQLiteStatement, source: String, includeRaw: Bool) throws -> Record {
        let (fields, text) = try fieldsWithText(statement, 1)
        var record = Record(
            source: source, key: statement.text(0) ?? "", origin: .remote,
            fields: fields,
            raw: includeRaw ? try json(statement, 4) : nil,
            image: statement.text(2).flatMap(ImageReference.init(stored:)),
            fetchedAt: Date(timeIntervalSince1970: statement.real(3)))
        if let text { record.keepFieldsText(text) }
        return record
    }

    /// The fields in `column`, parsed, and their stored text (which the store wrote with
    /// `JSONWriter`), for output to copy.
    static func fieldsWithText(_ statement: SQLiteStatement, _ column: Int32) throws -> (JSONObject, [UInt8]?) {
        try statement.withBytes(column) { bytes in
            (try JSONParser.parse(buffer: bytes).objectValue ?? JSONObject(), Array(bytes))
        } ?? (JSONObject(), nil)
    }

    public func count(in collection: CollectionID) async throws -> (local: Int, remote: Int) {
        try withDatabase { db in
            let local = try db.prepare("SELECT count(*) FROM local_records WHERE source = ?")
            try local.bind([.text(collection.source)])
            _ = try local.step()
            let remote = try db.prepare("SELECT record_count FROM collections WHERE source = ? AND parameters = ? AND generation IS NOT NULL")
            try remote.bind([.text(collection.source), .text(collection.parameters)])
            let remoteCount = try remote.step() ? Int(remote.integer(0)) : 0
            return (Int(local.integer(0)), remoteCount)
        }
    }

    public func record(key: String, in collection: CollectionID) async throws -> Record? {
        if let local = try withDatabase({ try Self.localRecord(key: key, source: collection.source, in: $0) }) { return local }
        return try Self.remoteRecord(key: key, in: openSnapshot(collection), source: collection.source)
    }

    static func remoteRecord(key: String, in snapshot: SQLiteDatabase?, source: String) throws -> Record? {
        guard let snapshot else { return nil }
        let statement = try snapshot.prepare(SnapshotFileSchema.selectRecords(includingRaw: true) + " WHERE r.key = ? ORDER BY r.position LIMIT 1")
        try statement.bind([.text(key)])
        guard try statement.step() else { return nil }
        return try remoteRecord(statement, source: source, includeRaw: true)
    }

    static func localRecord(key: String, source: String, in db: SQLiteDatabase) throws -> Record? {
        let statement = try db.prepare("SELECT sequence, key, fields, image, created_at, updated_at FROM local_records WHERE source = ? AND key = ?")
        try statement.bind([.text(source), .text(key)])
        guard try statement.step() else { return nil }
        return try localRecord(statement, source: source)
    }

    public func insertLocal(source: String, draft: LocalRecordDraft, blob: Blob?) async throws -> Record {
        try withDatabase { db in
            try db.transaction(writing: true) {
                let sequenceStatement = try db.prepare("""
                    INSERT INTO sequences (source, last) VALUES (?, 1)
                    ON CONFLICT (source) DO UPDATE SET last = last + 1 RETURNING last
                    """)
                try sequenceStatement.bind([.text(source)])
                _ = try sequenceStatement.step()
                let sequence = Int(sequenceStatement.integer(0))
                if let blob {
                    try db.prepare("INSERT OR IGNORE INTO blobs (digest, format, data) VALUES (?, ?, ?)")
                        .bind([.text(blob.digest), .text(blob.format), .blob(blob.data)]).run()
                }
                let now = Date()
                let record = Record(
                    source: source, key: Record.localKey(sequence), origin: .local, sequence: sequence,
                    fields: draft.fields, image: draft.image, createdAt: now, updatedAt: now)
                try db.prepare("""
                    INSERT INTO local_records (source, sequence, key, search, fields, image, created_at, updated_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """).bind([
                        .text(source), .integer(Int64(sequence)), .text(record.key), draft.searchText.map(SQLiteValue.text) ?? .null,
                        .textBytes(JSONWriter.bytes(.object(draft.fields))), draft.image.map { .text($0.description) } ?? .null,
                        .real(now.timeIntervalSince1970), .real(now.timeIntervalSince1970),
                    ]).run()
                return record
            }
        }
    }

    public func updateLocal(source: String, key: String, changes: JSONObject, searchField: String?) async throws -> Record {
        try await changeLocal(source: source, key: key) { db, record in
            var updated = record
            updated.fields.merge(changes)
            updated.updatedAt = Date()
            try db.prepare("UPDATE local_records SET fields = ?, search = ?, updated_at = ? WHERE source = ? AND key = ?").bind([
                .textBytes(JSONWriter.bytes(.object(updated.fields))),
                TextFolding.searchText(of: updated.fields, field: searchField).map(SQLiteValue.text) ?? .null,
                .real(updated.updatedAt!.timeIntervalSince1970), .text(source), .text(key),
            ]).run()
            return updated
        }
    }

    public func deleteLocal(source: String, key: String) async throws -> Record {
        try await changeLocal(source: source, key: key) { db, record in
            try db.prepare("DELETE FROM local_records WHERE source = ? AND key = ?").bind([.text(source), .text(key)]).run()
            return record
        }
    }

    /// Runs `change` on the local record `key` in a write transaction; a key that is not a
    /// local record is not found, or remote (which cannot be changed).
    private func changeLocal(source: String, key: String, _ change: (SQLiteDatabase, Record) throws -> Record) async throws -> Record {
        let changed = try withDatabase { db in
            try db.transaction(writing: true) { () -> Record? in
                guard let record = try Self.localRecord(key: key, source: source, in: db) else { return nil }
                return try change(db, record)
            }
        }
        if let changed { return changed }
        for collection in try await collections(of: source) where try Self.remoteRecord(key: key, in: openSnapshot(collection), source: source) != nil {
            throw StoreError.notLocal(source: source, key: key)
        }
        throw StoreError.notFound(source: source, key: key)
    }

    public func blob(digest: String) async throws -> Data? {
        try withDatabase { db in
            let statement = try db.prepare("SELECT data FROM blobs WHERE digest = ?")
            try statement.bind([.text(digest)])
            return try statement.step() ? statement.blob(0) : nil
        }
    }
}

/// Streams one snapshot into its own file, batch by batch; the store sees it on commit.
final class SQLiteSnapshotWriter: SnapshotWriter, @unchecked Sendable {
    private let store: SQLiteRecordStore
    private let collection: Int64
    private let generation: Int64
    private let file: String
    private let lock = Mutex(())
    private var database: SQLiteDatabase?
    private var insert: SQLiteStatement?
    private var insertDocument: SQLiteStatement?
    /// The snapshot file, for flushing it to disk: write-back is started after every batch
    /// and waited for at commit.
    private let openFile: OpenFile?
    /// A flush of what is written so far, started after a batch whenever none is running: a
    /// flush of the whole file at commit took 0.4 s on this machine (the virtual disk writes
    /// through on a flush), most of it after the indexes were built; flushing along the way
    /// leaves little for the end.
    private var rollingFlush: BackgroundFlush?
    private var count = 0

    init(store: SQLiteRecordStore, collection: Int64, generation: Int64, file: String) throws {
        self.store = store
        self.collection = collection
        self.generation = generation
        self.file = file
        try? FileManager.default.removeItem(atPath: file)
        let database = try SQLiteDatabase(path: file, mode: .privateBulk)
        try database.execute(SnapshotFileSchema.create)
        self.database = database
        self.insert = try database.prepare("INSERT INTO records (position, key, search, image, fetched_at) VALUES (?, ?, ?, ?, ?)")
        self.insertDocument = try database.prepare("INSERT INTO documents (position, fields, raw) VALUES (?, ?, ?)")
        self.openFile = try? OpenFile(path: file, mode: .reading)
    }

    func append(_ records: [RemoteRecord]) async throws {
        guard !records.isEmpty else { return }
        let now = Date().timeIntervalSince1970
        try lock.withLock { _ in
            guard let database, let insert, let insertDocument else { throw StoreError(.backend, "the snapshot was already committed or aborted") }
            try database.transaction(writing: true) {
                for record in records {
                    let position = SQLiteValue.integer(Int64(count))
                    try insert.run(borrowing: [
                        position, .text(record.key), record.searchText.map(SQLiteValue.text) ?? .null,
                        record.imageURL.map { .text(ImageReference.url($0).description) } ?? .null, .real(now),
                    ])
                    try insertDocument.run(borrowing: [
                        position, .textBytes(record.fieldsText ?? JSONWriter.bytes(.object(record.fields))),
                        .textBytes(record.rawText ?? JSONWriter.bytes(record.raw)),
                    ])
                    count += 1
                }
            }
            if let openFile {
                agg_start_writeback(openFile.descriptor)
                if rollingFlush?.isFinished ?? true {
                    try rollingFlush?.wait()
                    rollingFlush = BackgroundFlush(openFile)
                }
            }
        }
    }

    func commit(_ state: SyncState) async throws -> Int {
        let total = try lock.withLock { _ throws -> Int in
            guard let database else { throw StoreError(.backend, "the snapshot was already committed or aborted") }
            // The records are all written: the disk flushes them while the indexes are built.
            let flush = openFile.map(BackgroundFlush.init)
            // Never leave with a flush running: an abort closes the descriptor they use.
            defer {
                try? flush?.wait()
                try? rollingFlush?.wait()
            }
            try database.execute(SnapshotFileSchema.indexes)
            try rollingFlush?.wait()
            try flush?.wait()
            insert = nil
            insertDocument = nil
            self.database = nil
            return count
        }
        try openFile?.synchronize()
        try openFile?.close()
        try store.commit(collection: collection, generation: generation, file: file, state: state, count: total)
        return total
    }

    func abort() async {
        lock.withLock { _ in
            insert = nil
            insertDocument = nil
            database = nil
            // The flush uses the descriptor that is about to be closed.
            try? rollingFlush?.wait()
        }
        try? openFile?.close()
        try? FileManager.default.removeItem(atPath: file)
    }
}
