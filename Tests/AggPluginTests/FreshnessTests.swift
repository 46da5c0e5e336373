import AggBuiltins
import AggCore
import AggTestSupport
import Foundation
import Synchronization
import Testing

/// `Aggregator.query` syncs when data is missing or stale, not when it is fresh, never when
/// offline, and falls back to older data when a sync fails.
@Suite struct FreshnessTests {
    static let zoo = RecordQuery(collection: CollectionID(source: "zoo"), filters: [.prefix(field: "name", text: "大")], searchField: "name")

    @Test func missingDataIsSyncedThenFreshDataIsNot() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let aggregator = SyncTests.aggregator(server)
            let first = try await aggregator.query(Self.zoo)
            #expect(first.sync?.records == 313)
            #expect(first.records.count == 17)
            #expect(first.records.first?.fields["name"] == "大貓熊")
            let second = try await aggregator.query(Self.zoo)
            #expect(second.sync == nil)
            #expect(server.requests.count == 1)
        }
    }

    @Test func staleDataIsSyncedAndRefreshAlwaysSyncs() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let aggregator = SyncTests.aggregator(server)
            _ = try await aggregator.query(Self.zoo)
            let tomorrow = Date().addingTimeInterval(86_400 + 60)
            #expect(try await aggregator.query(Self.zoo, now: tomorrow).sync != nil)
            #expect(try await aggregator.query(Self.zoo, freshness: .refresh).sync != nil)
            #expect(server.requests.count == 3)
        }
    }

    @Test func offlineNeverFetches() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let aggregator = SyncTests.aggregator(server)
            let result = try await aggregator.query(Self.zoo, freshness: .offline)
            #expect(server.requests.isEmpty)
            #expect(result.state?.provenance == .bundledSnapshot(recorded: "2026-03-25"))
            #expect(result.records.count == 17)
        }
    }

    @Test func aFailingSyncAnswersFromOlderDataWithItsAge() async throws {
        let failing = Mutex(false)
        let zoo = try FixtureRoutes.dataTaipei(Fixtures.fullZoo)
        try await withFixtureServer({ request in failing.withLock { $0 } ? .text("down", status: 503) : await zoo(request) }) { server in
            var aggregator = SyncTests.aggregator(server)
            aggregator.httpConfiguration.retry.maximumAttempts = 1
            _ = try await aggregator.query(Self.zoo)
            failing.withLock { $0 = true }
            let later = Date().addingTimeInterval(3 * 86_400)
            let result = try await aggregator.query(Self.zoo, now: later)
            #expect(result.records.count == 17)
            #expect(result.notices.first?.hasPrefix("could not refresh zoo: \(server.baseURL)") == true)
            #expect(result.notices.first?.hasSuffix("showing data from 3 days ago") == true)
        }
    }

    /// Once the bundled snapshot is stored, each query tries the source again; when that
    /// fails, one notice says so and labels the data as the bundled snapshot with its date
    /// (not as data stored "just now").
    @Test func aFailingRefreshOfTheBundledSnapshotSaysItIsTheBundledSnapshot() async throws {
        try await withFixtureServer({ _ in .text("down", status: 503) }) { server in
            var aggregator = SyncTests.aggregator(server)
            aggregator.httpConfiguration.retry.maximumAttempts = 1
            _ = try await aggregator.query(Self.zoo)
            let result = try await aggregator.query(Self.zoo)
            #expect(result.records.count == 17)
            #expect(result.notices.count == 1)
            #expect(result.notices.first?.hasPrefix("could not refresh zoo: \(server.baseURL)") == true)
            #expect(result.notices.first?.hasSuffix("; showing the bundled snapshot recorded 2026-03-25, not live data; run 'agg sync zoo' when online") == true)
            #expect(server.requests.count == 2)
        }
    }

    /// Local records only read no remote data: nothing is fetched or seeded and no notice is
    /// given, unless a refresh is asked for.
    @Test func localRecordsOnlyNeedNoRemoteData() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let aggregator = SyncTests.aggregator(server)
            _ = try await aggregator.insert(into: "zoo", fields: ["name": "石虎", "image": "https://example.com/cat.jpg"])
            let local = RecordQuery(collection: CollectionID(source: "zoo"), origin: .local)
            let result = try await aggregator.query(local)
            #expect(result.records.map { $0.fields["name"] } == ["石虎"])
            #expect(result.sync == nil && result.notices.isEmpty && result.state == nil)
            #expect(server.requests.isEmpty)
            #expect(try await aggregator.store.syncState(of: local.collection) == nil)
            #expect(try await aggregator.query(local, freshness: .refresh).sync?.records == 313)
            #expect(server.requests.count == 1)
        }
    }

    @Test func nothingStoredAndNoBundleFailsClearly() async throws {
        try await withFixtureServer({ _ in .text("down", status: 503) }) { server in
            var aggregator = SyncTests.aggregator(server)
            aggregator.bundledSnapshots = nil
            aggregator.httpConfiguration.retry.maximumAttempts = 1
            let error = await #expect(throws: SyncError.self) { try await aggregator.query(Self.zoo) }
            #expect(error?.kind == .network)
            let offline = await #expect(throws: SyncError.self) { try await aggregator.query(Self.zoo, freshness: .offline) }
            #expect(offline?.message.contains("--offline forbids fetching") == true)
        }
    }
}
