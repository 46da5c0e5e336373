import AggTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct SyncCommandTests {
    @Test func syncStoresAllZooRecordsFromTheLoopbackServer() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let environment = TestEnvironment.pointing(at: server, folder)
            let sync = try await AggProcess.run(["sync", "zoo"], environment: environment)
            #expect(sync.status == 0)
            #expect(sync.standardOutput.hasPrefix("zoo: 313 records in 1 page ("))
            #expect(sync.standardOutput.contains("stopped: total reached)"))
            #expect(sync.standardError == "")
            let query = try await AggProcess.run(["query", "zoo", "--format", "ndjson"], environment: environment)
            let lines = query.standardOutput.split(separator: "\n")
            #expect(lines.count == 313)
            for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
        }
    }

    @Test func flickrWithoutAKeyNamesTheVariableAndFetchesNothing() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await withFixtureServer({ _ in .text("{}") }) { server in
            let outcome = try await AggProcess.run(["sync", "flickr", "--param", "lat=25.03", "--param", "lon=121.56"],
                                             environment: TestEnvironment.pointing(at: server, folder))
            #expect(outcome.status == 78)
            #expect(outcome.standardError == "agg: source 'flickr' needs the secret FLICKR_API_KEY in the environment, and it is not set; get a free key at https://www.flickr.com/services/apps/create/apply/ and export FLICKR_API_KEY=…\n")
            #expect(server.requests.isEmpty)
        }
    }

    @Test func aFlickrFailureIsClearAndKeepsThePreviousSnapshot() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let failing = Mutex(false)
        let ok = try FixtureRoutes.flickr("flickr/search-ok-20photos-2018_hadanischal-FlickrSearchExample.json", pages: 10)
        let failure = try FixtureRoutes.file("flickr/fail-code112-method-not-found-2019_lexorus-flickr-search-challenge.json")
        try await withFixtureServer({ request in failing.withLock { $0 } ? await failure(request) : await ok(request) }) { server in
            var environment = TestEnvironment.pointing(at: server, folder)
            environment["FLICKR_API_KEY"] = "0123456789abcdef"
            let arguments = ["sync", "flickr", "--param", "lat=25.03", "--param", "lon=121.56"]
            #expect(try await AggProcess.run(arguments, environment: environment).status == 0)
            failing.withLock { $0 = true }
            let failed = try await AggProcess.run(arguments, environment: environment)
            #expect(failed.status == 69)
            #expect(failed.standardError == "agg: sync failed: flickr: Flickr: Method \"flickr.photos.searchr\" not found (flickr error code 112); the stored data was left as it was\n")
            #expect(!failed.standardError.contains("0123456789abcdef"))
            let query = try await AggProcess.run(["query", "flickr", "--param", "lat=25.03", "--param", "lon=121.56", "--offline", "--format", "ndjson"], environment: environment)
            #expect(query.standardOutput.split(separator: "\n").count == 20)
        }
    }

    @Test func anUnreachableSourceKeepsTheDataAndSaysWhatToDo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let failing = Mutex(false)
        let ok = try FixtureRoutes.dataTaipei(Fixtures.fullZoo)
        try await withFixtureServer({ request in failing.withLock { $0 } ? .text("not here", status: 404) : await ok(request) }) { server in
            let environment = TestEnvironment.pointing(at: server, folder)
            #expect(try await AggProcess.run(["sync", "zoo"], environment: environment).status == 0)
            failing.withLock { $0 = true }
            let failed = try await AggProcess.run(["sync", "zoo"], environment: environment)
            #expect(failed.status == 69)
            #expect(failed.standardError.hasPrefix("agg: sync failed: zoo: "))
            #expect(failed.standardError.contains("HTTP 404"))
            #expect(failed.standardError.hasSuffix("; the stored data was left as it was. Once the source can be reached, sync again; 'agg sources show zoo' shows the address it uses\n"))
            let query = try await AggProcess.run(["query", "zoo", "--offline", "--format", "ndjson"], environment: environment)
            #expect(query.standardOutput.split(separator: "\n").count == 313)
        }
    }

    @Test func theMainCommandAnswersOfflineFromTheBundledSnapshotLabelled() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var environment = TestEnvironment.isolated(folder)
        environment["AGG_DATA_TAIPEI"] = "http://127.0.0.1:9"
        let outcome = try await AggProcess.run(["query", "zoo", "--prefix", "大", "--format", "csv", "--fields", "name"], environment: environment)
        #expect(outcome.status == 0)
        #expect(outcome.standardError.contains("using the bundled snapshot recorded 2026-03-25 (313 records)"))
        #expect(outcome.standardOutput.hasPrefix("key,origin,name\r\n1,remote,大貓熊\r\n11,remote,大長臂猿\r\n"))
        #expect(outcome.standardOutput.split(separator: "\r\n").count == 18)
        let again = try await AggProcess.run(["query", "zoo", "--prefix", "大", "--offline", "--format", "csv"], environment: environment)
        #expect(again.standardError.contains("showing the bundled snapshot recorded 2026-03-25, not live data"))
    }

    /// A bundled snapshot answering for a collection with parameters says it was recorded
    /// for others: the recorded Flickr search is not a search around the place asked for.
    @Test func theBundledSnapshotOfAParameterisedSourceSaysItIsForOtherParameters() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var environment = TestEnvironment.isolated(folder)
        environment["AGG_FLICKR_API"] = "http://127.0.0.1:9"
        environment["FLICKR_API_KEY"] = "0123456789abcdef"
        let arguments = ["query", "flickr", "--param", "lat=25.03", "--param", "lon=121.56", "--format", "ndjson"]
        let first = try await AggProcess.run(arguments, environment: environment)
        #expect(first.status == 0)
        #expect(first.standardError.contains("using the bundled snapshot recorded 2020-02-22 (10 records; recorded with other parameters, not lat=25.03, lon=121.56, radius=5)"))
        let again = try await AggProcess.run(arguments + ["--offline"], environment: environment)
        #expect(again.standardError == "agg: flickr: showing the bundled snapshot recorded 2020-02-22 (recorded with other parameters, not lat=25.03, lon=121.56, radius=5), not live data; run 'agg sync flickr' when online\n")
    }

    /// libcurl is opened on the first fetch; without it, agg still starts, says what is
    /// missing, and answers from the bundled snapshot like when offline.
    @Test func withoutLibcurlSyncSaysSoAndFallsBackToTheBundledSnapshot() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var environment = TestEnvironment.isolated(folder)
        environment["AGG_LIBCURL"] = folder.path + "/no-such-libcurl.so"
        environment["AGG_DATA_TAIPEI"] = "http://127.0.0.1:9"
        let outcome = try await AggProcess.run(["sync", "zoo"], environment: environment)
        #expect(outcome.status == 0)
        #expect(outcome.standardError.contains("cannot load libcurl"))
        #expect(outcome.standardError.contains("install libcurl4 to fetch sources"))
        #expect(outcome.standardError.contains("using the bundled snapshot recorded 2026-03-25"))
    }

    @Test func syncAllSeedsEveryReachableSourceAndSkipsThoseNeedingParameters() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var environment = TestEnvironment.isolated(folder)
        for variable in ["AGG_DATA_TAIPEI", "AGG_FLICKR_API"] { environment[variable] = "http://127.0.0.1:9" }
        environment["AGG_POKEDEX_URL"] = "http://127.0.0.1:9/pokedex.json"
        let outcome = try await AggProcess.run(["sync", "--all"], environment: environment)
        #expect(outcome.status == 0)
        let lines = outcome.standardOutput.split(separator: "\n")
        #expect(lines.map { $0.split(separator: ":").first ?? "" } == ["metro", "pokemon", "zoo"])
        #expect(lines.allSatisfy { $0.contains("bundled snapshot recorded") })
        #expect(outcome.standardError.contains("agg: flickr: skipped; it needs parameters (agg sync flickr --param …)"))
    }

    @Test func aSyncKilledMidwayLeavesThePreviousSnapshot() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let slow = Mutex(false)
        let zoo = try FixtureRoutes.dataTaipei(Fixtures.fullZoo)
        try await withFixtureServer({ request in
            var response = await zoo(request)
            if slow.withLock({ $0 }), request.query["offset"] != "0" { response.delay = 30 }
            return response
        }) { server in
            let definitions = try folder.write("pages.yaml", """
                zoo:
                  decoder: taipei-zoo
                  request: { url: "${AGG_DATA_TAIPEI}/api/v1/dataset/x" }
                  records: result.results
                  paginate: { style: offset, limit: 50, total: result.count }
                  key: id
                  search: name

                """)
            var environment = TestEnvironment.pointing(at: server, folder)
            environment["AGG_SOURCES"] = definitions
            #expect(try await AggProcess.run(["sync", "zoo"], environment: environment).status == 0)
            #expect(try await AggProcess.run(["insert", "zoo", "name=石虎", "image=https://example.org/cat.jpg"], environment: environment).status == 0)
            slow.withLock { $0 = true }
            let process = try AggProcess.start(["sync", "zoo"], environment: environment)
            for _ in 0..<200 where server.requests.count < 8 { try await Task.sleep(nanoseconds: 20_000_000) }
            kill(process.processIdentifier, SIGKILL)
            await AggProcess.wait(for: process)
            #expect(process.terminationReason == .uncaughtSignal)
            let query = try await AggProcess.run(["query", "zoo", "--offline", "--format", "ndjson"], environment: environment)
            let lines = query.standardOutput.split(separator: "\n")
            #expect(lines.count == 314)
            #expect(lines.first?.contains("\"key\":\"local-1\"") == true)
        }
    }
}
