import AggTestSupport
import Foundation
import Testing

@Suite struct QueryCommandTests {
    static let metroFixture = "taipei-metro/download-resource-envelope-24recs-2021-02-24_eggtower-MRTStationList.json"
    static let goldenFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden").path

    /// Runs `body` with metro synced from the loopback server into a private store.
    func withMetro(_ body: ([String: String], FixtureServer) async throws -> Void) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await withFixtureServer(try FixtureRoutes.file(Self.metroFixture)) { server in
            let environment = TestEnvironment.pointing(at: server, folder)
            #expect(try await AggProcess.run(["sync", "metro"], environment: environment).status == 0)
            try await body(environment, server)
        }
    }

    @Test(arguments: ["table", "json", "ndjson", "csv"])
    func everyFormatMatchesItsGoldenFile(format: String) async throws {
        try await withMetro { environment, _ in
            let outcome = try await AggProcess.run(
                ["query", "metro", "--prefix", "南", "--format", format, "--fields", "station,destination,updated"], environment: environment)
            #expect(outcome.status == 0)
            let golden = try String(contentsOfFile: Self.goldenFolder + "/metro-prefix.\(format)", encoding: .utf8)
            #expect(outcome.standardOutput == golden)
        }
    }

    @Test func ndjsonLinesParseAndCarryKeyOriginAndFields() async throws {
        try await withMetro { environment, _ in
            let outcome = try await AggProcess.run(["query", "metro", "--format", "ndjson", "--raw"], environment: environment)
            let lines = outcome.standardOutput.split(separator: "\n")
            #expect(lines.count == 24)
            for line in lines {
                let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
                #expect(object["key"] is String && object["origin"] as? String == "remote")
                #expect((object["fields"] as? [String: Any])?["updated"] is String)
                #expect((object["raw"] as? [String: Any])?["UpdateTime"] is String)
            }
        }
    }

    /// `--origin local` reads no remote data: on a fresh store it neither fetches nor says
    /// anything about the source being unreachable or stale.
    @Test func localRecordsOnlyFetchNothing() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await withFixtureServer(try FixtureRoutes.file(Self.metroFixture)) { server in
            let environment = TestEnvironment.pointing(at: server, folder)
            #expect(try await AggProcess.run(["insert", "metro", "station=南港站", "destination=頂埔站"], environment: environment).status == 0)
            let local = try await AggProcess.run(["query", "metro", "--origin", "local", "--fields", "station"], environment: environment)
            #expect(local.status == 0)
            #expect(local.standardOutput == "{\"source\":\"metro\",\"key\":\"local-1\",\"origin\":\"local\",\"sequence\":1,\"fields\":{\"station\":\"南港站\"}}\n")
            #expect(local.standardError == "")
            #expect(server.requests.isEmpty)
        }
    }

    /// A misspelt field gets a "did you mean" from the stored records' fields: a usage error
    /// when nothing matched, a warning beside the output otherwise; real fields get neither.
    @Test func aMisspeltFieldIsNamedWithTheClosestOne() async throws {
        try await withMetro { environment, _ in
            let filtered = try await AggProcess.run(["query", "metro", "--where", "staton=南勢角站", "--format", "ndjson"], environment: environment)
            #expect(filtered.status == 64)
            #expect(filtered.standardOutput == "")
            #expect(filtered.standardError == "agg: no metro record has a field 'staton'; did you mean 'station'?\n")
            let selected = try await AggProcess.run(["query", "metro", "--fields", "station,destinaton", "--sort", "updatd", "--format", "csv"], environment: environment)
            #expect(selected.status == 0)
            #expect(selected.standardOutput.split(separator: "\r\n").count == 25)
            #expect(selected.standardError == """
                agg: no metro record has a field 'updatd'; did you mean 'updated'?
                agg: no metro record has a field 'destinaton'; did you mean 'destination'?

                """)
            let correct = try await AggProcess.run(["query", "metro", "--where", "station=nowhere", "--fields", "station,key", "--format", "ndjson"], environment: environment)
            #expect(correct.status == 1)
            #expect(correct.standardError == "")
        }
    }

    /// A negative number is refused for what it is, not read as a missing value.
    @Test func aNegativeLimitOrOffsetIsRefusedByName() async throws {
        for option in ["--limit", "--offset"] {
            let outcome = try await AggProcess.run(["query", "metro", option, "-1"])
            #expect(outcome.status == 64)
            #expect(outcome.standardError.hasPrefix("Error: \(option) must be 0 or more\n"))
        }
    }

    @Test func offlineOpensNoConnection() async throws {
        try await withMetro { environment, server in
            let before = server.requests.count
            var stale = environment
            stale["AGG_SOURCES"] = nil
            let outcome = try await AggProcess.run(["query", "metro", "--offline", "--refresh"], environment: stale)
            #expect(outcome.status == 64)
            let offline = try await AggProcess.run(["query", "metro", "--offline", "--format", "csv"], environment: environment)
            #expect(offline.status == 0)
            #expect(server.requests.count == before)
        }
    }

    @Test func refreshSyncsAgainAndFreshDataDoesNot() async throws {
        try await withMetro { environment, server in
            let before = server.requests.count
            _ = try await AggProcess.run(["query", "metro", "--format", "csv"], environment: environment)
            #expect(server.requests.count == before)
            _ = try await AggProcess.run(["query", "metro", "--refresh", "--format", "csv"], environment: environment)
            #expect(server.requests.count == before + 1)
        }
    }

    @Test func noMatchesExitsWithOne() async throws {
        try await withMetro { environment, _ in
            let outcome = try await AggProcess.run(["query", "metro", "--prefix", "Zürich", "--format", "json"], environment: environment)
            #expect(outcome.status == 1)
            #expect(outcome.standardOutput == "[]\n")
            let ndjson = try await AggProcess.run(["query", "metro", "--prefix", "Zürich", "--format", "ndjson"], environment: environment)
            #expect(ndjson.status == 1)
            #expect(ndjson.standardOutput.isEmpty)
        }
    }

    @Test func showTellsWhereATrainIsHeaded() async throws {
        try await withMetro { environment, _ in
            let outcome = try await AggProcess.run(["show", "metro", "三重國小站/蘆洲站"], environment: environment)
            #expect(outcome.status == 0)
            let lines = outcome.standardOutput.split(separator: "\n")
            #expect(lines.first == "metro/三重國小站/蘆洲站 — 三重國小站")
            #expect(lines.dropFirst().first == "→ bound for 蘆洲站")
            #expect(outcome.standardOutput.contains("updated      2021-02-24T12:56:50.427+08:00 (2021年02月24日12時56分)"))
            #expect(outcome.standardOutput.contains("\n  fetched      2"))
            let missing = try await AggProcess.run(["show", "metro", "nowhere"], environment: environment)
            #expect(missing.status == 64)
        }
    }

    /// The whole bundled zoo (780 KB of output, written out in pieces as it is read) comes
    /// out as 313 NDJSON lines and as one JSON array of the same 313 records.
    @Test func aWholeSourceStreamsOutAsNDJSONAndAsOneJSONArray() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let environment = TestEnvironment.isolated(folder)
        let ndjson = try await AggProcess.run(["query", "zoo", "--offline", "--format", "ndjson"], environment: environment)
        #expect(ndjson.status == 0)
        let lines = ndjson.standardOutput.split(separator: "\n")
        #expect(ndjson.standardOutput.utf8.count > 200_000)
        #expect(lines.count == 313)
        let keys = try lines.map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["key"] as? String
        }
        let json = try await AggProcess.run(["query", "zoo", "--offline", "--format", "json"], environment: environment)
        #expect(json.status == 0)
        let array = try #require(JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [[String: Any]])
        #expect(array.map { $0["key"] as? String } == keys)
    }

    @Test func showOnAFreshMachineFallsBackToTheBundledSnapshot() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var environment = TestEnvironment.isolated(folder)
        environment["AGG_DATA_TAIPEI"] = "http://127.0.0.1:9"
        let outcome = try await AggProcess.run(["show", "metro", "中山站/新店站"], environment: environment)
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("→ bound for 新店站"))
        #expect(outcome.standardError.contains("using the bundled snapshot recorded 2020-06-08"))
        #expect(outcome.standardOutput.contains("\n  recorded     2020-06-08 (the bundled snapshot, not fetched)\n"))
        #expect(!outcome.standardOutput.contains("fetched  "))
    }

    @Test func badQueryArgumentsAreUsageErrors() async throws {
        try await withMetro { environment, _ in
            let condition = try await AggProcess.run(["query", "metro", "--where", "station"], environment: environment)
            #expect(condition.status == 64)
            #expect(condition.standardError.contains("'station' is not a condition like name=大貓熊, id>=10 or updated<2021-01-01"))
            let parameter = try await AggProcess.run(["query", "metro", "--param", "x=1"], environment: environment)
            #expect(parameter.status == 64)
            #expect(parameter.standardError == "agg: source 'metro' has no parameter 'x' (it takes no parameters)\n")
            let format = try await AggProcess.run(["query", "metro", "--format", "yaml"], environment: environment)
            #expect(format.status == 64)
            #expect(format.standardError.contains("Please provide one of 'table', 'json', 'ndjson' or 'csv'."))
            let help = try await AggProcess.run(["query", "--help"], environment: environment)
            #expect(help.standardOutput.contains("(values:\n                          all, local, remote; default: all)"))
        }
    }
}
