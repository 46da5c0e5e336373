import AggCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What `sources list` says about one source: its definition and what is stored.
struct SourceStatus {
    let source: RegisteredSource
    var records = 0
    var collections = 0
    var state: SyncState?

    init(_ source: RegisteredSource, store: any RecordStore) async throws {
        self.source = source
        var collectionIDs = try await store.collections(of: source.name)
        collections = collectionIDs.count
        if collectionIDs.isEmpty { collectionIDs = [CollectionID(source: source.name)] }
        for (index, collection) in collectionIDs.enumerated() {
            let counts = try await store.count(in: collection)
            records += counts.remote + (index == 0 ? counts.local : 0)
            if let collectionState = try await store.syncState(of: collection), collectionState.syncedAt > (state?.syncedAt ?? .distantPast) {
                state = collectionState
            }
        }
    }

    var lastSync: String {
        guard source.definition.kind == .remote else { return "—" }
        guard let state else { return "never" }
        if case .bundledSnapshot(let recorded) = state.provenance { return "bundled (\(recorded))" }
        return Aggregator.age(of: state.syncedAt)
    }

    var freshness: String {
        guard source.definition.kind == .remote else { return "—" }
        guard let state else { return "no" }
        return Aggregator.isStale(state, ttl: source.definition.ttl, now: Date()) ? "stale" : "yes"
    }

    var json: JSONValue {
        var object = JSONObject()
        object["name"] = .string(source.name)
        object["title"] = .string(source.definition.title)
        object["kind"] = .string(source.definition.kind.rawValue)
        object["decoder"] = source.definition.decoder.map(JSONValue.string) ?? .null
        object["file"] = .string(source.file.path)
        object["line"] = .int(source.definition.location.line)
        object["origin"] = .string(source.file.origin.rawValue)
        object["overrides"] = .array(source.overrides.map { .string($0.description) })
        object["records"] = .int(records)
        object["collections"] = .int(collections)
        object["last_sync"] = state.map { .string($0.syncedAt.formatted(.iso8601)) } ?? .null
        object["provenance"] = state.map { .string($0.provenanceText) } ?? .null
        object["fresh"] = source.definition.kind == .remote ? .bool(freshness == "yes") : .null
        return .object(object)
    }
}
