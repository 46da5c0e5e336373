import AggCore
import Foundation
import Synchronization

/// The default store: one SQLite file (`--store sqlite:PATH`, default
/// `$XDG_DATA_HOME/agg/agg.sqlite`) in WAL mode, so readers are never blocked by a sync and
/// several `agg` processes can write one file.
///
/// A snapshot is written as a new *generation* of a collection's rows in short transactions
/// of one batch each; only the commit, one small transaction, makes it current and removes
/// older generations. A sync that fails or is killed leaves rows of a generation nobody
/// points at, which the next commit removes. Memory stays flat however many records arrive.
///
/// The class is `@unchecked Sendable` because its only mutable state, the connection, is used
/// under `lock` and nowhere else.
public final class SQLiteRecordStore: RecordStore, @unchecked Sendable {
    private let lock = NSLock()
    private let connection: SQLiteDatabase
    /// The database file.
    public let path: String

    /// Opens or creates the store at `path`, creating its folder when needed.
    public init(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        let connection = try SQLiteDatabase(path: path)
        try SQLiteSchema.migrate(connection)
        self.path = path
        self.connection = connection
    }

    public var location: String { "sqlite:\(path)" }

    /// Runs `body` with the connection, one caller at a time.
    func withDatabase<T>(_ body: (SQLiteDatabase) throws -> T) throws -> T {
        try lock.withLock { try body(connection) }
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
        return SQLiteSnapshotWriter(store: self, collection: collectionID, generation: generation)
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
        try withDatabase { db in
            try db.transaction(writing: false) {
                var matched: [Record] = []
                var skipped = 0
                let stopsEarly = query.sort.isEmpty
                let prefix = query.indexedPrefix
                func consume(_ record: Record) -> Bool {
                    guard query.matches(record) else { return true }
                    if stopsEarly {
                        if skipped < query.offset { skipped += 1; return true }
                        if let limit = query.limit, matched.count >= limit { return false }
                    }
                    matched.append(record)
                    return true
                }
                var more = true
                if query.origin != .remote {
                    var sql = "SELECT sequence, key, fields, image, created_at, updated_at FROM local_records WHERE source = ?"
                    var values: [SQLiteValue] = [.text(query.collection.source)]
                    Self.narrow(&sql, &values, prefix: prefix, substrings: query.indexedSubstrings)
                    let statement = try db.prepare(sql + " ORDER BY sequence DESC")
                    try statement.bind(values)
                    while more, try statement.step() {
                        more = consume(try Self.localRecord(statement, source: query.collection.source))
                    }
                }
                if more, query.origin != .local, let (collection, generation) = try Self.currentGeneration(query.collection, in: db) {
                    var sql = "SELECT key, fields, image, fetched_at\(query.includeRaw ? ", raw" : "") FROM remote_records WHERE collection = ? AND generation = ?"
                    var values: [SQLiteValue] = [.integer(collection), .integer(generation)]
                    Self.narrow(&sql, &values, prefix: prefix, substrings: query.indexedSubstrings)
                    let statement = try db.prepare(sql + " ORDER BY position")
                    try statement.bind(values)
                    while more, try statement.step() {
                        more = consume(try Self.remoteRecord(statement, source: query.collection.source, includeRaw: query.includeRaw))
                    }
                }
                return stopsEarly ? matched : query.sortAndSlice(matched)
            }
        }
    }

    /// Adds conditions on the folded search column: an index range for a prefix, `instr`
    /// for substrings. Rows still pass through `RecordQuery.matches` afterwards.
    static func narrow(_ sql: inout String, _ values: inout [SQLiteValue], prefix: String?, substrings: [String]) {
        if let prefix {
            sql += " AND search >= ? AND search < ?"
            values += [.text(prefix), .text(prefix + "\u{10FFFF}")]
        }
        for substring in substrings {
            sql += " AND instr(search, ?) > 0"
            values.append(.text(substring))
        }
    }

    static func currentGeneration(_ collection: CollectionID, in db: SQLiteDatabase) throws -> (Int64, Int64)? {
        let statement = try db.prepare("SELECT id, generation FROM collections WHERE source = ? AND parameters = ? AND generation IS NOT NULL")
        try statement.bind([.text(collection.source), .text(collection.parameters)])
        guard try statement.step() else { return nil }
        return (statement.integer(0), statement.integer(1))
    }

    static func json(_ statement: SQLiteStatement, _ column: Int32) throws -> JSONValue {
        try statement.withBytes(column) { bytes in try JSONParser.parse(buffer: bytes) } ?? .null
    }

    static func localRecord(_ statement: SQLiteStatement, source: String) throws -> Record {
        Record(
            source: source, key: statement.text(1) ?? "", origin: .local, sequence: Int(statement.integer(0)),
            fields: try json(statement, 2).objectValue ?? JSONObject(),
            image: statement.text(3).flatMap(ImageReference.init(stored:)),
            createdAt: Date(timeIntervalSince1970: statement.real(4)),
            updatedAt: Date(timeIntervalSince1970: statement.real(5)))
    }

    static func remoteRecord(_ statement: SQLiteStatement, source: String, includeRaw: Bool) throws -> Record {
        Record(
            source: source, key: statement.text(0) ?? "", origin: .remote,
            fields: try json(statement, 1).objectValue ?? JSONObject(),
            raw: includeRaw ? try json(statement, 4) : nil,
            image: statement.text(2).flatMap(ImageReference.init(stored:)),
            fetchedAt: Date(timeIntervalSince1970: statement.real(3)))
    }

    public func count(in collection: CollectionID) async throws -> (local: Int, remote: Int) {
        try withDatabase { db in
            try db.transaction(writing: false) {
                let local = try db.prepare("SELECT count(*) FROM local_records WHERE source = ?")
                try local.bind([.text(collection.source)])
                _ = try local.step()
                var remote: Int64 = 0
                if let (id, generation) = try Self.currentGeneration(collection, in: db) {
                    let statement = try db.prepare("SELECT count(*) FROM remote_records WHERE collection = ? AND generation = ?")
                    try statement.bind([.integer(id), .integer(generation)])
                    _ = try statement.step()
                    remote = statement.integer(0)
                }
                return (Int(local.integer(0)), Int(remote))
            }
        }
    }

    public func record(key: String, in collection: CollectionID) async throws -> Record? {
        try withDatabase { db in
            try db.transaction(writing: false) {
                if let local = try Self.localRecord(key: key, source: collection.source, in: db) { return local }
                guard let (id, generation) = try Self.currentGeneration(collection, in: db) else { return nil }
                let statement = try db.prepare("SELECT key, fields, image, fetched_at, raw FROM remote_records WHERE collection = ? AND generation = ? AND key = ? ORDER BY position LIMIT 1")
                try statement.bind([.integer(id), .integer(generation), .text(key)])
                guard try statement.step() else { return nil }
                return try Self.remoteRecord(statement, source: collection.source, includeRaw: true)
            }
        }
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
                        .text(JSONWriter.string(.object(draft.fields))), draft.image.map { .text($0.description) } ?? .null,
                        .real(now.timeIntervalSince1970), .real(now.timeIntervalSince1970),
                    ]).run()
                return record
            }
        }
    }

    public func updateLocal(source: String, key: String, changes: JSONObject, searchField: String?) async throws -> Record {
        try withDatabase { db in
            try db.transaction(writing: true) {
                guard var record = try Self.localRecord(key: key, source: source, in: db) else {
                    throw try Self.missing(key: key, source: source, in: db)
                }
                record.fields.merge(changes)
                record.updatedAt = Date()
                try db.prepare("UPDATE local_records SET fields = ?, search = ?, updated_at = ? WHERE source = ? AND key = ?").bind([
                    .text(JSONWriter.string(.object(record.fields))),
                    TextFolding.searchText(of: record.fields, field: searchField).map(SQLiteValue.text) ?? .null,
                    .real(record.updatedAt!.timeIntervalSince1970), .text(source), .text(key),
                ]).run()
                return record
            }
        }
    }

    public func deleteLocal(source: String, key: String) async throws -> Record {
        try withDatabase { db in
            try db.transaction(writing: true) {
                guard let record = try Self.localRecord(key: key, source: source, in: db) else {
                    throw try Self.missing(key: key, source: source, in: db)
                }
                try db.prepare("DELETE FROM local_records WHERE source = ? AND key = ?").bind([.text(source), .text(key)]).run()
                return record
            }
        }
    }

    /// Not found, or found among the remote records (which cannot be changed).
    static func missing(key: String, source: String, in db: SQLiteDatabase) throws -> StoreError {
        let statement = try db.prepare("""
            SELECT 1 FROM remote_records r JOIN collections c ON r.collection = c.id AND r.generation = c.generation
            WHERE c.source = ? AND r.key = ? LIMIT 1
            """)
        try statement.bind([.text(source), .text(key)])
        return try statement.step()
            ? StoreError(.notLocal, "'\(key)' in source '\(source)' is a remote record; only your own records (keys like local-1) can be changed or deleted")
            : StoreError(.notFound, "no record '\(key)' in source '\(source)'")
    }

    public func blob(digest: String) async throws -> Data? {
        try withDatabase { db in
            let statement = try db.prepare("SELECT data FROM blobs WHERE digest = ?")
            try statement.bind([.text(digest)])
            return try statement.step() ? statement.blob(0) : nil
        }
    }
}

/// Writes one generation of a collection's rows, batch by batch.
final class SQLiteSnapshotWriter: SnapshotWriter {
    private let store: SQLiteRecordStore
    private let collection: Int64
    private let generation: Int64
    private let appended = Mutex(0)

    init(store: SQLiteRecordStore, collection: Int64, generation: Int64) {
        self.store = store
        self.collection = collection
        self.generation = generation
    }

    func append(_ records: [RemoteRecord]) async throws {
        guard !records.isEmpty else { return }
        let start = appended.withLock { count in
            defer { count += records.count }
            return count
        }
        let now = Date().timeIntervalSince1970
        try store.withDatabase { db in
            try db.transaction(writing: true) {
                let insert = try db.prepare("""
                    INSERT INTO remote_records (collection, generation, position, key, search, fields, raw, image, fetched_at)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """)
                for (offset, record) in records.enumerated() {
                    try insert.bind([
                        .integer(collection), .integer(generation), .integer(Int64(start + offset)), .text(record.key),
                        record.searchText.map(SQLiteValue.text) ?? .null,
                        .textBytes(JSONWriter.bytes(.object(record.fields))), .textBytes(JSONWriter.bytes(record.raw)),
                        record.imageURL.map { .text(ImageReference.url($0).description) } ?? .null, .real(now),
                    ]).run()
                }
            }
        }
    }

    func commit(_ state: SyncState) async throws -> Int {
        let expected = appended.withLock { $0 }
        return try store.withDatabase { db in
            try db.transaction(writing: true) {
                let count = try db.prepare("SELECT count(*) FROM remote_records WHERE collection = ? AND generation = ?")
                try count.bind([.integer(collection), .integer(generation)])
                _ = try count.step()
                guard Int(count.integer(0)) == expected else {
                    throw StoreError(.backend, "another sync of the same collection removed this snapshot while it was being written; run the sync again")
                }
                try db.prepare("""
                    UPDATE collections SET generation = ?, synced_at = ?, stop_reason = ?, record_count = ?, pages_fetched = ?,
                        total_pages = ?, current_page = ?, provenance = ?
                    WHERE id = ?
                    """).bind([
                        .integer(generation), .real(state.syncedAt.timeIntervalSince1970), .text(state.stopReason),
                        .integer(Int64(expected)), .integer(Int64(state.pagesFetched)),
                        state.totalPages.map { .integer(Int64($0)) } ?? .null, state.currentPage.map { .integer(Int64($0)) } ?? .null,
                        .text(state.provenanceText), .integer(collection),
                    ]).run()
                try db.prepare("DELETE FROM remote_records WHERE collection = ? AND generation < ?")
                    .bind([.integer(collection), .integer(generation)]).run()
                return expected
            }
        }
    }

    func abort() async {
        try? store.withDatabase { db in
            try db.prepare("DELETE FROM remote_records WHERE collection = ? AND generation = ?")
                .bind([.integer(collection), .integer(generation)]).run()
        }
    }
}
