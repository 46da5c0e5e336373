#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When a query may sync first.
public enum Freshness: Sendable, Hashable {
    /// Sync when nothing is stored or the stored data is older than the source's `ttl`.
    case automatic
    /// Always sync first (pull to refresh).
    case refresh
    /// Never touch the network.
    case offline
}

/// Records of a query, and where they came from.
public struct QueryResult: Sendable {
    /// The records.
    public internal(set) var records: [Record]
    /// The sync run before answering, if any.
    public var sync: SyncReport?
    /// Things the user should know: stale data after a failed sync, a bundled snapshot.
    public var notices: [String]
    /// The state of the remote data answered from.
    public var state: SyncState?
}

extension Aggregator {
    /// Answers `query` for `source`, syncing first when `freshness` asks for it or the data is
    /// missing or stale. If the sync fails and older data exists, the older data answers with
    /// a notice giving its age; if nothing exists, the bundled snapshot answers (labelled), or
    /// the sync's error is thrown. `page` fetches one page of a page-numbered source first
    /// (`.random` for a new random collection). A query of local records only
    /// (`origin: .local`) reads no remote data, so it syncs only when `freshness` is `.refresh`
    /// or a `page` is asked for.
    public func query(
        _ query: RecordQuery, freshness: Freshness = .automatic, page: PageSelection? = nil,
        parameters: [String: String] = [:], client: HTTPClient? = nil,
        progress: @Sendable (SyncEvent) -> Void = { _ in }, now: Date = Date()
    ) async throws -> QueryResult {
        var result = try await prepare(
            query.collection, freshness: freshness, page: page, parameters: parameters, origin: query.origin,
            client: client, progress: progress, now: now)
        result.records = try await store.records(matching: query)
        return result
    }

    /// Makes `collection`'s remote data ready to read as `freshness` asks: syncs when it is
    /// missing or stale (or always, for `.refresh` or a `page`), seeds the bundled snapshot
    /// when offline with nothing stored, and explains in notices what is being answered from.
    /// The result has no records yet. Local sources need no preparation, and neither does
    /// reading only local records (`origin: .local`) unless `freshness` is `.refresh` or a
    /// `page` is asked for: the remote data is not read, so neither its absence nor its age
    /// matters.
    public func prepare(
        _ collection: CollectionID, freshness: Freshness = .automatic, page: PageSelection? = nil,
        parameters: [String: String] = [:], origin: RecordQuery.OriginFilter = .all, client: HTTPClient? = nil,
        progress: @Sendable (SyncEvent) -> Void = { _ in }, now: Date = Date()
    ) async throws -> QueryResult {
        let definition = try self.source(named: collection.source)
        let readsRemoteData = origin != .local || freshness == .refresh || page != nil
        guard definition.kind == .remote, readsRemoteData else { return QueryResult(records: [], sync: nil, notices: [], state: nil) }
        var notices: [String] = []
        var report: SyncReport?
        var refreshFailure: String?
        var state = try await store.syncState(of: collection)
        let stale = state.map { Self.isStale($0, ttl: definition.ttl, now: now) } ?? true
        let wantsSync = freshness == .refresh || page != nil || (freshness == .automatic && stale)
        if freshness == .offline {
            if state == nil, let bundled = bundledSnapshots?.snapshot(for: definition.name) {
                report = try await seed(collection, definition: definition, from: bundled, because: "--offline and nothing stored yet", progress: progress)
                state = try await store.syncState(of: collection)
            }
        } else if wantsSync {
            do {
                report = try await sync(definition.name, options: SyncOptions(parameters: parameters, page: page), client: client, progress: progress)
                state = try await store.syncState(of: collection)
            } catch let error as SyncError where state != nil {
                refreshFailure = "could not refresh \(collection): \(error.message)"
            } catch let error as ConfigurationError where state != nil {
                refreshFailure = "could not refresh \(collection): \(error)"
            }
        }
        guard let state else {
            throw SyncError(kind: .network, source: definition.name,
                            message: freshness == .offline ? "nothing is stored yet and --offline forbids fetching; run 'agg sync \(definition.name)' when online" : "nothing is stored yet")
        }
        var bundled: String?
        if case .bundledSnapshot(let recorded) = state.provenance, report?.provenance != state.provenance {
            let caveat = Self.bundledSnapshotCaveat(for: collection).map { " (\($0))" } ?? ""
            bundled = "showing the bundled snapshot recorded \(recorded)\(caveat), not live data; run 'agg sync \(definition.name)' when online"
        }
        if let refreshFailure {
            // The time a bundled snapshot was stored says nothing about how old its data is.
            notices.append("\(refreshFailure); \(bundled ?? "showing data from \(Self.age(of: state.syncedAt, now: now))")")
        } else if let bundled {
            notices.append("\(definition.name): \(bundled)")
        }
        return QueryResult(records: [], sync: report, notices: notices, state: state)
    }

    /// Whether `state` is older than `ttl` (bundled snapshots always are).
    public static func isStale(_ state: SyncState, ttl: TimeToLive?, now: Date) -> Bool {
        if case .bundledSnapshot = state.provenance { return true }
        guard let ttl else { return false }
        return now.timeIntervalSince(state.syncedAt) > Double(ttl.seconds)
    }

    /// `just now`, `5 minutes ago`, `3 hours ago`, `2 days ago`.
    public static func age(of date: Date, now: Date = Date()) -> String {
        let seconds = Int(now.timeIntervalSince(date))
        func plural(_ value: Int, _ unit: String) -> String { "\(value) \(unit)\(value == 1 ? "" : "s") ago" }
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return plural(seconds / 60, "minute")
        case ..<86_400: return plural(seconds / 3600, "hour")
        default: return plural(seconds / 86_400, "day")
        }
    }
}
