import AggCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How `FileRecordStore` writes records, states and files.
enum FileRecordCoding {
    static let dateStyle = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    static func date(_ date: Date?) -> JSONValue { date.map { .string($0.formatted(dateStyle)) } ?? .null }

    static func date(_ value: JSONValue?) -> Date? {
        value?.stringValue.flatMap { try? dateStyle.parse($0) }
    }

    /// The non-empty lines of an ndjson file, parsed.
    static func lines(_ data: Data) throws -> [JSONValue] {
        try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            var values: [JSONValue] = []
            var start = 0
            for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
                if index > start {
                    values.append(try JSONParser.parse(buffer: UnsafeBufferPointer(rebasing: bytes[start..<index])))
                }
                start = index + 1
            }
            return values
        }
    }

    static func json(local record: Record) -> JSONValue {
        .object(JSONObject([
            ("sequence", .int(record.sequence ?? 0)), ("key", .string(record.key)), ("fields", .object(record.fields)),
            ("image", record.image.map { .string($0.description) } ?? .null),
            ("created_at", date(record.createdAt)), ("updated_at", date(record.updatedAt)),
        ]))
    }

    static func localRecord(from value: JSONValue, source: String) throws -> Record {
        Record(
            source: source, key: value["key"]?.stringValue ?? "", origin: .local, sequence: value["sequence"]?.intValue,
            fields: value["fields"]?.objectValue ?? JSONObject(),
            image: value["image"]?.stringValue.flatMap(ImageReference.init(stored:)),
            createdAt: date(value["created_at"]), updatedAt: date(value["updated_at"]))
    }

    static func json(remote record: RemoteRecord, fetchedAt: Date) -> JSONValue {
        .object(JSONObject([
            ("key", .string(record.key)), ("fields", .object(record.fields)),
            ("image", record.imageURL.map { .string($0) } ?? .null), ("fetched_at", date(fetchedAt)), ("raw", record.raw),
        ]))
    }

    static func remoteRecord(from value: JSONValue, source: String) throws -> Record {
        Record(
            source: source, key: value["key"]?.stringValue ?? "", origin: .remote,
            fields: value["fields"]?.objectValue ?? JSONObject(), raw: value["raw"],
            image: value["image"]?.stringValue.map(ImageReference.url), fetchedAt: date(value["fetched_at"]))
    }

    static func json(state: SyncState) -> JSONValue {
        .object(JSONObject([
            ("synced_at", date(state.syncedAt)), ("stop_reason", .string(state.stopReason)),
            ("record_count", .int(state.recordCount)), ("pages_fetched", .int(state.pagesFetched)),
            ("total_pages", state.totalPages.map(JSONValue.int) ?? .null), ("current_page", state.currentPage.map(JSONValue.int) ?? .null),
            ("provenance", .string(state.provenanceText)),
        ]))
    }

    static func state(from value: JSONValue) -> SyncState {
        SyncState(
            syncedAt: date(value["synced_at"]) ?? Date(timeIntervalSince1970: 0), stopReason: value["stop_reason"]?.stringValue ?? "",
            recordCount: value["record_count"]?.intValue ?? 0, pagesFetched: value["pages_fetched"]?.intValue ?? 0,
            totalPages: value["total_pages"]?.intValue, currentPage: value["current_page"]?.intValue,
            provenance: SyncState.provenance(fromText: value["provenance"]?.stringValue ?? "network"))
    }

    /// Writes `data` to a temporary file beside `path`, then renames it over `path`.
    static func writeAtomically(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw StoreError(.backend, "cannot write \(path): \(SystemErrorText.describe(error))")
        }
    }
}
