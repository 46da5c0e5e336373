import AggBuiltins
import AggCore
import AggTestSupport
import Foundation
import Synchronization
import Testing

/// Syncs against the loopback fixture server: every fetch goes through libcurl.
@Suite struct SyncTests {
    static let extraDefinitions = """
        zoo-small-pages:
          decoder: taipei-zoo
          request: { url: "${AGG_DATA_TAIPEI}/api/v1/dataset/6afa114d-38a2-4e3c-9cfd-29d3bd26b65b", query: { scope: resourceAquire } }
          records: result.results
          paginate: { style: offset, limit: 100, total: result.count }
          key: id
          search: name
        zoo-no-total:
          decoder: taipei-zoo
          request: { url: "${AGG_DATA_TAIPEI}/dataset" }
          records: result.results
          paginate: { style: offset, limit: 100 }
          key: id
        pokeapi:
          decoder: pokemon
          request: { url: "${AGG_POKEAPI}/api/v2/pokemon/", query: { limit: "200" } }
          records: results
          paginate: { style: next, next: next }
          key: id
          search: name
        endless:
          request: { url: "${AGG_POKEAPI}/cursor" }
          records: items
          paginate: { style: next, next: next, max_pages: 5 }
          fields: { id: id }
          key: id
        flickr-pages:
          decoder: flickr
          request: { url: "${AGG_FLICKR_API}/services/rest/" }
          records: photos.photo
          paginate: { style: page, size: 21, size_param: per_page, pages: photos.pages }
          key: id

        """

    static func aggregator(_ server: FixtureServer, store: any RecordStore = MemoryRecordStore(), extraEnvironment: [String: String] = [:]) -> Aggregator {
        var environment = ["HOME": "/nonexistent", "AGG_DATA_TAIPEI": server.baseURL, "AGG_FLICKR_API": server.baseURL,
                           "AGG_POKEDEX_URL": server.baseURL + "/pokedex.json", "AGG_POKEAPI": server.baseURL, "FLICKR_API_KEY": "k3y-s3cret"]
        environment.merge(extraEnvironment) { $1 }
        var registry = Builtins.registry(environment: environment)
        registry.add(DefinitionLoader(knownDecoders: Builtins.decoders.names).load(text: extraDefinitions, file: "extra.yaml"),
                     from: DefinitionFile(path: "extra.yaml", origin: .commandLine))
        var http = HTTPClientConfiguration()
        http.retry.initialDelay = 0.01
        http.totalTimeout = 30
        return Aggregator(registry: registry, store: store, decoders: Builtins.decoders, environment: environment,
                          bundledSnapshots: BuiltinSnapshots(), httpConfiguration: http)
    }

    @Test func zooSyncStoresAll313RecordsThroughOffsetPages() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let aggregator = Self.aggregator(server)
            let report = try await aggregator.sync("zoo-small-pages")
            #expect(report.records == 313)
            #expect(report.pages == 4)
            #expect(report.stopReason == .totalReached)
            #expect(report.totalPages == 4)
            let records = try await aggregator.records(of: "zoo-small-pages")
            #expect(records.count == 313)
            #expect(records.map(\.key) == (1...313).map(String.init))
            #expect(Set(server.requests.map { $0.query["offset"] ?? "" }) == ["0", "100", "200", "300"])
            #expect(server.requests.allSatisfy { $0.query["scope"] == "resourceAquire" && $0.query["limit"] == "100" })
        }
    }

    @Test func builtInZooWithDefaultPaging() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let aggregator = Self.aggregator(server)
            let report = try await aggregator.sync("zoo")
            #expect(report.records == 313)
            #expect(report.pages == 1)
            #expect(try await aggregator.store.syncState(of: CollectionID(source: "zoo"))?.provenance == .network)
        }
    }

    @Test func offsetPagingWithoutATotalStopsAtAShortPage() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let report = try await Self.aggregator(server).sync("zoo-no-total")
            #expect(report.records == 313)
            #expect(report.stopReason == .shortPage)
        }
    }

    @Test func aServerThatIgnoresTheOffsetStopsAsARepeatedPage() async throws {
        let handler = try FixtureRoutes.dataTaipei(Fixtures.fullZoo)
        try await withFixtureServer({ request in
            var fixed = request
            fixed.query["offset"] = "0"
            return await handler(fixed)
        }) { server in
            let report = try await Self.aggregator(server).sync("zoo-small-pages")
            #expect(report.stopReason == .repeatedPage)
            #expect(report.records == 100)
            #expect(report.warnings.contains { $0.contains("repeats the page before it") })
        }
    }

    @Test func nextLinksAreFollowedAndResolvedAgainstTheRequest() async throws {
        try await withFixtureServer(try FixtureRoutes.pokeAPI(limit: 200)) { server in
            let aggregator = Self.aggregator(server)
            let report = try await aggregator.sync("pokeapi")
            #expect(report.records == 1351)
            #expect(report.pages == 7)
            #expect(report.stopReason == .lastPage)
            let pikachu = try await aggregator.store.record(key: "25", in: CollectionID(source: "pokeapi"))
            #expect(pikachu?.fields["name"] == "pikachu")
        }
    }

    @Test func aCursorThatNeverEndsStopsAtThePageLimit() async throws {
        try await withFixtureServer({ request in
            let n = Int(request.query["n"] ?? "0") ?? 0
            return .json(["items": [["id": .int(n)]], "next": .string("/cursor?n=\(n + 1)")])
        }) { server in
            let report = try await Self.aggregator(server).sync("endless")
            #expect(report.stopReason == .pageLimit)
            #expect(report.pages == 5)
            #expect(server.requests.count == 5)
        }
    }

    @Test func aCursorThatRepeatsStops() async throws {
        try await withFixtureServer({ request in
            .json(["items": [["id": .int(Int(request.query["n"] ?? "0") ?? 0)]], "next": "/cursor?n=1"])
        }) { server in
            let report = try await Self.aggregator(server).sync("endless")
            #expect(report.stopReason == .repeatedPage)
            #expect(report.records == 2)
        }
    }

    @Test func flickrPagesAndTotalPagesAsAString() async throws {
        try await withFixtureServer(try FixtureRoutes.flickr("flickr/search-ok-2photos-2019_lexorus-flickr-search-challenge.json", pages: 3)) { server in
            let aggregator = Self.aggregator(server)
            let report = try await aggregator.sync("flickr-pages")
            #expect(report.records == 6)
            #expect(report.stopReason == .totalReached)
            #expect(server.requests.map { $0.query["page"] } == ["1", "2", "3"])
            #expect(server.requests.allSatisfy { $0.query["per_page"] == "21" })
        }
    }

    @Test func flickrCollectionsPerParameterSetAndRandomPages() async throws {
        try await withFixtureServer(try FixtureRoutes.flickr("flickr/search-ok-2photos-2019_lexorus-flickr-search-challenge.json", pages: 50)) { server in
            let aggregator = Self.aggregator(server)
            let taipei = SyncOptions(parameters: ["lat": "25.03", "lon": "121.56"])
            let first = try await aggregator.sync("flickr", options: taipei)
            #expect(first.currentPage == 1 && first.totalPages == 50)
            #expect(server.requests.last?.query["lat"] == "25.03")
            #expect(server.requests.last?.query["api_key"] == "k3y-s3cret")
            var random = taipei
            random.page = .random
            let again = try await aggregator.sync("flickr", options: random)
            let page = try #require(again.currentPage)
            #expect((1...50).contains(page))
            let collection = CollectionID(source: "flickr", parameters: ["lat": "25.03", "lon": "121.56", "radius": "5"])
            let keys = try await aggregator.store.records(matching: RecordQuery(collection: collection)).map(\.key)
            #expect(keys.allSatisfy { $0.hasPrefix("\(page)-") })
            #expect(try await aggregator.store.syncState(of: collection)?.currentPage == page)
            _ = try await aggregator.sync("flickr", options: SyncOptions(parameters: ["lat": "35.68", "lon": "139.69"]))
            #expect(try await aggregator.store.collections(of: "flickr").count == 2)
        }
    }

    @Test func aFlickrFailureKeepsThePreviousSnapshot() async throws {
        let fail = Mutex(false)
        let ok = try FixtureRoutes.flickr("flickr/search-ok-2photos-2019_lexorus-flickr-search-challenge.json", pages: 1)
        let failure = try FixtureRoutes.file("flickr/fail-code112-method-not-found-2019_lexorus-flickr-search-challenge.json")
        try await withFixtureServer({ request in fail.withLock { $0 } ? await failure(request) : await ok(request) }) { server in
            let aggregator = Self.aggregator(server)
            let options = SyncOptions(parameters: ["lat": "1", "lon": "2"])
            _ = try await aggregator.sync("flickr", options: options)
            fail.withLock { $0 = true }
            let error = await #expect(throws: SyncError.self) { try await aggregator.sync("flickr", options: options) }
            #expect(error?.code == "112")
            #expect(error?.description == #"flickr: Flickr: Method "flickr.photos.searchr" not found"#)
            #expect(try await aggregator.records(of: "flickr", parameters: ["lat": "1", "lon": "2"]).count == 2)
        }
    }

    @Test func aMissingSecretFetchesNothing() async throws {
        try await withFixtureServer({ _ in .text("{}") }) { server in
            var aggregator = Self.aggregator(server)
            aggregator.environment["FLICKR_API_KEY"] = nil
            let error = await #expect(throws: ConfigurationError.self) {
                try await aggregator.sync("flickr", options: SyncOptions(parameters: ["lat": "1", "lon": "2"]))
            }
            #expect(error?.kind == .missingSecret("FLICKR_API_KEY"))
            #expect(error?.description.contains("https://www.flickr.com/services/apps/create/apply/") == true)
            #expect(server.requests.isEmpty)
        }
    }

    @Test(arguments: [
        ("truncated", FixtureResponse.text(#"{"result":{"count":313,"results":[{"_id":1,"a_name_ch":"大"#), "not valid JSON"),
        ("html", FixtureResponse.text("<html><body>Service Unavailable</body></html>", contentType: "text/html"), "HTML instead of JSON"),
        ("wrong shape", FixtureResponse.text(#"{"result":{"count":1,"results":{"a":1}}}"#), "expected a list of records at 'result.results', found an object"),
    ])
    func badResponsesFailAndKeepThePreviousSnapshot(name: String, response: FixtureResponse, message: String) async throws {
        let broken = Mutex(false)
        let good = try FixtureRoutes.dataTaipei(Fixtures.fullZoo)
        try await withFixtureServer({ request in broken.withLock { $0 } ? response : await good(request) }) { server in
            let aggregator = Self.aggregator(server)
            _ = try await aggregator.sync("zoo")
            broken.withLock { $0 = true }
            let error = await #expect(throws: SyncError.self) { try await aggregator.sync("zoo") }
            #expect(error?.kind == .response)
            #expect(error?.message.contains(message) == true)
            #expect(try await aggregator.records(of: "zoo").count == 313)
        }
    }

    @Test func anUnreachableSourceSeedsFromTheBundledSnapshotOnlyWhenNothingIsStored() async throws {
        let server = try await FixtureServer.start(try FixtureRoutes.dataTaipei(Fixtures.fullZoo))
        let aggregator = Self.aggregator(server, extraEnvironment: ["AGG_DATA_TAIPEI": "http://127.0.0.1:9"])
        await server.stop()
        let notices = Mutex<[String]>([])
        let report = try await aggregator.sync("metro") { event in
            if case .notice(let text) = event { notices.withLock { $0.append(text) } }
        }
        #expect(report.provenance == .bundledSnapshot(recorded: "2020-06-08"))
        #expect(report.records == 25)
        #expect(notices.withLock { $0 }.first?.contains("using the bundled snapshot recorded 2020-06-08 (25 records)") == true)
        let error = await #expect(throws: SyncError.self) { try await aggregator.sync("metro") }
        #expect(error?.kind == .network)
        #expect(try await aggregator.records(of: "metro").count == 25)
    }

    @Test func localRecordsSurviveASync() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let aggregator = Self.aggregator(server)
            let cat = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
            let inserted = try await aggregator.insert(into: "zoo", fields: ["name": "石虎"], image: .data(cat))
            _ = try await aggregator.sync("zoo")
            let records = try await aggregator.records(of: "zoo")
            #expect(records.first?.key == inserted.key)
            #expect(records.count == 314)
            #expect(try await aggregator.store.blob(digest: SHA256.hexDigest(of: cat)) == cat)
        }
    }
}
