import AggCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A store in plain files that a person can read and a script can grep
/// (`--store file:DIR`):
///
/// ```
/// DIR/<source>/local.ndjson                       the user's records, one JSON object a line
/// DIR/<source>/sequence                           the last sequence number handed out
/// DIR/<source>/collections/<parameters>/current   → the committed generation folder
/// DIR/<source>/collections/<parameters>/<generation>/records.ndjson and state.json
/// DIR/blobs/<sha256>.<ext>                        images the user added
/// ```
///
/// A snapshot is streamed into a new generation folder and made current by atomically
/// replacing the `current` symbolic link, so an interrupted sync leaves the previous one in
/// place. Writers from several processes take an exclusive `flock` on `DIR/.lock`.
public final class FileRecordStore: RecordStore {
    /// The store's folder.
    public let directory: String

    /// Opens or creates the store in `directory`.
    public init(directory: String) throws {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory + "/blobs", withIntermediateDirectories: true)
        } catch {
            throw StoreError(.backend, "cannot create the file store at \(directory): \(SystemErrorText.describe(error))")
        }
    }

    public var location: String { "file:\(directory)" }

    func sourceFolder(_ source: String) -> String { directory + "/" + source }

    func collectionFolder(_ collection: CollectionID) -> String {
        let name = collection.parameters.isEmpty ? "default" : collection.parameters.replacingAll("/", with: "%2F")
        return sourceFolder(collection.source) + "/collections/" + name
    }

    /// Runs `body` holding the store's exclusive write lock (across processes).
    func withWriteLock<T>(_ body: () throws -> T) throws -> T {
        let descriptor = open(directory + "/.lock", O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw StoreError(.backend, "cannot open the lock file of \(directory)") }
        defer { close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            if errno != EINTR { throw StoreError(.backend, "cannot lock \(directory)") }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    public func beginSnapshot(of collection: CollectionID) async throws -> any SnapshotWriter {
        try FileSnapshotWriter(store: self, collection: collection)
    }

    public func syncState(of collection: CollectionID) async throws -> SyncState? {
        let path = collectionFolder(collection) + "/current/state.json"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try FileRecordCoding.state(from: JSONParser.parse(data))
    }

    public func collections(of source: String) async throws -> [CollectionID] {
        let folder = sourceFolder(source) + "/collections"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().compactMap { name in
            guard FileManager.default.fileExists(atPath: folder + "/" + name + "/current/state.json") else { return nil }
            var collection = CollectionID(source: source)
            collection.parameters = name == "default" ? "" : name.replacingAll("%2F", with: "/")
            return collection
        }
    }

    func localRecords(_ source: String) throws -> [Record] {
        guard let data = FileManager.default.contents(atPath: sourceFolder(source) + "/local.ndjson") else { return [] }
        return try FileRecordCoding.lines(data).map { try FileRecordCoding.localRecord(from: $0, source: source) }
    }

    func remoteRecords(_ collection: CollectionID) throws -> [Record] {
        guard let data = FileManager.default.contents(atPath: collectionFolder(collection) + "/current/records.ndjson") else { return [] }
        return try FileRecordCoding.lines(data).map { try FileRecordCoding.remoteRecord(from: $0, source: collection.source) }
    }

    public func records(matching query: RecordQuery) async throws -> [Record] {
        let local = query.origin == .remote ? [] : try localRecords(query.collection.source).reversed()
        let remote = query.origin == .local ? [] : try remoteRecords(query.collection)
        return query.evaluate(mergedRecords: local + remote)
    }

    public func count(in collection: CollectionID) async throws -> (local: Int, remote: Int) {
        (try localRecords(collection.source).count, try await syncState(of: collection)?.recordCount ?? 0)
    }

    public func record(key: String, in collection: CollectionID) async throws -> Record? {
        if let local = try localRecords(collection.source).first(where: { $0.key == key }) { return local }
        return try remoteRecords(collection).first { $0.key == key }
    }

    public func insertLocal(source: String, draft: LocalRecordDraft, blob: Blob?) async throws -> Record {
        try withWriteLock {
            let folder = sourceFolder(source)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let sequenceFile = folder + "/sequence"
            let last = FileManager.default.contents(atPath: sequenceFile).flatMap { Int(String(decoding: $0, as: UTF8.self).trimmingSpaces) } ?? 0
            let sequence = last + 1
            if let blob {
                let path = directory + "/blobs/\(blob.digest).\(ImageFormat(rawValue: blob.format)?.fileExtension ?? blob.format)"
                if !FileManager.default.fileExists(atPath: path) { try FileRecordCoding.writeAtomically(blob.data, to: path) }
            }
            let now = Date()
            let record = Record(
                source: source, key: Record.localKey(sequence), origin: .local, sequence: sequence,
                fields: draft.fields, image: draft.image, createdAt: now, updatedAt: now)
            try FileRecordCoding.writeAtomically(Data("\(sequence)\n".utf8), to: sequenceFile)
            try writeLocal(try localRecords(source) + [record], source: source)
            return record
        }
    }

    func writeLocal(_ records: [Record], source: String) throws {
        var text = ""
        for record in records { text += JSONWriter.string(FileRecordCoding.json(local: record)) + "\n" }
        try FileRecordCoding.writeAtomically(Data(text.utf8), to: sourceFolder(source) + "/local.ndjson")
    }

    public func updateLocal(source: String, key: String, changes: JSONObject, searchField: String?) async throws -> Record {
        try withWriteLock {
            var records = try localRecords(source)
            guard let index = records.firstIndex(where: { $0.key == key }) else { throw try missing(key: key, source: source) }
            records[index].fields.merge(changes)
            records[index].updatedAt = Date()
            try writeLocal(records, source: source)
            return records[index]
        }
    }

    public func deleteLocal(source: String, key: String) async throws -> Record {
        try withWriteLock {
            var records = try localRecords(source)
            guard let index = records.firstIndex(where: { $0.key == key }) else { throw try missing(key: key, source: source) }
            let removed = records.remove(at: index)
            try writeLocal(records, source: source)
            return removed
        }
    }

    func missing(key: String, source: String) throws -> StoreError {
        let folder = sourceFolder(source) + "/collections"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
            var collection = CollectionID(source: source)
            collection.parameters = name == "default" ? "" : name
            if try remoteRecords(collection).contains(where: { $0.key == key }) {
                return StoreError.notLocal(source: source, key: key)
            }
        }
        return StoreError.notFound(source: source, key: key)
    }

    public func blob(digest: String) async throws -> Data? {
        for format in ImageFormat.allCases {
            if let data = FileManager.default.contents(atPath: directory + "/blobs/\(digest).\(format.fileExtension)") { return data }
        }
        return nil
    }
}

/// Streams a snapshot into a new generation folder of `FileRecordStore`.
final class FileSnapshotWriter: SnapshotWriter, @unchecked Sendable {
    private let store: FileRecordStore
    private let collectionFolder: String
    private let generation: String
    private let lock = Mutex(())
    private let file: OpenFile
    private var count = 0

    init(store: FileRecordStore, collection: CollectionID) throws {
        self.store = store
        collectionFolder = store.collectionFolder(collection)
        generation = "generation-" + UUID().uuidString
        let folder = collectionFolder + "/" + generation
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        file = try OpenFile(path: folder + "/records.ndjson", mode: .writingFromStart)
    }

    func append(_ records: [RemoteRecord]) async throws {
        let fetchedAt = Date()
        var text = ""
        for record in records { text += JSONWriter.string(FileRecordCoding.json(remote: record, fetchedAt: fetchedAt)) + "\n" }
        try lock.withLock { _ in
            try file.write(Array(text.utf8))
            count += records.count
        }
    }

    func commit(_ state: SyncState) async throws -> Int {
        let total = try lock.withLock { _ throws -> Int in
            try file.synchronize()
            try file.close()
            return count
        }
        var committed = state
        committed.recordCount = total
        try FileRecordCoding.writeAtomically(
            Data(JSONWriter.string(FileRecordCoding.json(state: committed)).utf8), to: collectionFolder + "/" + generation + "/state.json")
        try store.withWriteLock {
            let link = collectionFolder + "/current"
            let temporary = collectionFolder + "/.current-" + UUID().uuidString
            guard symlink(generation, temporary) == 0, rename(temporary, link) == 0 else {
                throw StoreError(.backend, "cannot switch \(link) to the new snapshot")
            }
            for name in (try? FileManager.default.contentsOfDirectory(atPath: collectionFolder)) ?? []
            where name.hasPrefix("generation-") && name != generation {
                try? FileManager.default.removeItem(atPath: collectionFolder + "/" + name)
            }
        }
        return total
    }

    func abort() async {
        lock.withLock { _ in try? file.close() }
        try? FileManager.default.removeItem(atPath: collectionFolder + "/" + generation)
    }
}
