import AggTestSupport
import Foundation
import Testing

@Suite struct SourcesCommandTests {
    @Test func listsTheFiveBuiltInsFromAnyDirectory() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let outcome = try await AggProcess.run(["sources", "list"], environment: TestEnvironment.isolated(folder), in: "/")
        #expect(outcome.status == 0)
        #expect(outcome.standardError == "")
        let names = outcome.standardOutput.split(separator: "\n").dropFirst().map { $0.split(separator: " ").first.map(String.init) ?? "" }
        #expect(names == ["faces", "flickr", "metro", "pokemon", "zoo"])
        #expect(outcome.standardOutput.contains("built-in sources.yaml:"))
    }

    /// libcurl is opened on first fetch, so commands that never fetch do not load it and
    /// the thirty libraries it needs at every start-up.
    @Test func theExecutableDoesNotLinkLibcurl() async throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [AggProcess.executable]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let libraries = String(decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        #expect(libraries.contains("libsqlite3"))
        #expect(!libraries.contains("libcurl"))
    }

    @Test func listsAsJSONWithTheDefiningFile() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let extra = try folder.write("mine.yaml", "zoo:\n  kind: local\n  title: My zoo\n")
        let outcome = try await AggProcess.run(["sources", "list", "--format", "json", "--sources", extra], environment: TestEnvironment.isolated(folder))
        #expect(outcome.status == 0)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [[String: Any]])
        let zoo = try #require(list.first { $0["name"] as? String == "zoo" })
        #expect(zoo["title"] as? String == "My zoo")
        #expect(zoo["file"] as? String == extra)
        #expect(zoo["origin"] as? String == "--sources")
        #expect((zoo["overrides"] as? [String])?.first?.hasSuffix("sources.yaml:8:1") == true)
    }

    @Test func userFolderAndEnvironmentAddSources() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try folder.write("config/agg/sources.d/birds.yaml", "birds:\n  kind: local\n  title: Birds\n")
        let fromEnvironment = try folder.write("trees.yaml", "trees:\n  kind: local\n")
        var environment = TestEnvironment.isolated(folder)
        environment["AGG_SOURCES"] = fromEnvironment
        let outcome = try await AggProcess.run(["sources", "list"], environment: environment)
        #expect(outcome.standardOutput.contains("birds "))
        #expect(outcome.standardOutput.contains("trees "))
    }

    @Test func validateReportsAMisspelledKeyWithLocationAndExitsNonZero() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = try folder.write("bad.yaml", "birds:\n  kind: local\n  titel: Birds\n")
        let outcome = try await AggProcess.run(["sources", "validate", file], environment: TestEnvironment.isolated(folder))
        #expect(outcome.status == 65)
        #expect(outcome.standardError == "\(file):3:3: error: unknown key 'titel' in source 'birds'; did you mean 'title'?\n  titel: Birds\n  ^\n")
        #expect(outcome.standardOutput == "")
    }

    @Test func validateSaysOkPerFile() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = try folder.write("good.yaml", "birds:\n  kind: local\ntrees:\n  kind: local\n")
        let outcome = try await AggProcess.run(["sources", "validate", file], environment: TestEnvironment.isolated(folder))
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput == "\(file): ok (2 sources: birds, trees)\n")
    }

    @Test func aBrokenUserFileIsReportedAndTheRestStillLists() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let broken = try folder.write("broken.yaml", "birds:\n  kind: local\n  paginate: {}\n")
        let outcome = try await AggProcess.run(["sources", "list", "--sources", broken], environment: TestEnvironment.isolated(folder))
        #expect(outcome.status == 0)
        #expect(outcome.standardError.hasPrefix("\(broken):3:3: error: 'paginate' does not apply to a local source"))
        #expect(outcome.standardOutput.contains("zoo "))
        let query = try await AggProcess.run(["query", "birds", "--sources", broken], environment: TestEnvironment.isolated(folder))
        #expect(query.status == 65)
        #expect(query.standardError.hasSuffix("agg: source 'birds' (\(broken):1:1) has errors in its definition, so it was not loaded; 'agg sources validate \(broken)' lists them\n"))
    }

    @Test func unknownSourceSuggestsAndExitsWithTheUsageCode() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let outcome = try await AggProcess.run(["sources", "show", "zooo"], environment: TestEnvironment.isolated(folder))
        #expect(outcome.status == 64)
        #expect(outcome.standardError == "agg: unknown source 'zooo'; did you mean 'zoo'?\n")
    }

    @Test func showPrintsTheResolvedDefinitionAndHidesSecrets() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var environment = TestEnvironment.isolated(folder)
        environment["FLICKR_API_KEY"] = "very-secret-key"
        environment["AGG_FLICKR_API"] = "http://127.0.0.1:9"
        let outcome = try await AggProcess.run(["sources", "show", "flickr"], environment: environment)
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.contains("request      GET http://127.0.0.1:9/services/rest/?method=flickr.photos.search&api_key=<secret>&lat=${params.lat}"))
        #expect(outcome.standardOutput.contains(" sources.yaml:"))
        #expect(outcome.standardOutput.contains(" (built-in)"))
        #expect(!outcome.standardOutput.contains("very-secret-key"))
    }

    @Test func versionAndHelp() async throws {
        let version = try await AggProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.standardOutput == "0.1.0\n")
        let help = try await AggProcess.run(["--help"])
        #expect(help.standardOutput.contains("Examples:"))
        #expect(help.standardOutput.contains("64  usage error"))
    }

    /// Help paragraphs are rewrapped to the terminal's width: a sentence that goes on to the
    /// next line never leaves a word or two stranded on a line of its own.
    @Test(arguments: [
        [], ["sources"], ["sources", "list"], ["sources", "show"], ["sources", "validate"], ["sync"], ["query"],
        ["show"], ["insert"], ["update"], ["delete"], ["images"], ["images", "fetch"], ["images", "path"], ["images", "prune"],
    ])
    func helpParagraphsFillTheirLines(command: [String]) async throws {
        for width in [60, 80, 100] {
            let help = try await AggProcess.run(command + ["--help"], environment: ["COLUMNS": String(width)])
            #expect(help.status == 0)
            let lines = help.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
            for (line, next) in zip(lines, lines.dropFirst()) where Self.isProse(line) && Self.isProse(next) {
                #expect(line.count + 1 + next.prefix { $0 != " " }.count >= width, "stranded line at width \(width): \(line)")
            }
        }
    }

    /// An unindented line of a paragraph (not a heading, example or option).
    private static func isProse(_ line: Substring) -> Bool {
        guard let first = line.first, first != " " else { return false }
        return !line.hasSuffix(":") && !line.hasPrefix("USAGE:")
    }
}
