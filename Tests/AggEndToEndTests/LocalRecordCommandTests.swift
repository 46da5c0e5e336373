import AggTestSupport
import Foundation
import Testing

@Suite struct LocalRecordCommandTests {
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46])

    @Test func insertedRecordsComeFirstAndSurviveASync() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let cat = folder.path + "/cat.jpg"
        try Self.jpeg.write(to: URL(fileURLWithPath: cat))
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let environment = TestEnvironment.pointing(at: server, folder)
            #expect(try await AggProcess.run(["sync", "zoo"], environment: environment).status == 0)
            let insert = try await AggProcess.run(["insert", "zoo", "name=石虎", "--image", cat], environment: environment)
            #expect(insert.status == 0)
            #expect(insert.standardOutput == "inserted zoo/local-1\n")
            #expect(try await AggProcess.run(["sync", "zoo", "--offline"].filter { $0 != "--offline" }, environment: environment).status == 0)
            let query = try await AggProcess.run(["query", "zoo", "--prefix", "石", "--format", "ndjson"], environment: environment)
            let first = try #require(query.standardOutput.split(separator: "\n").first)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
            #expect(object["key"] as? String == "local-1")
            #expect(object["origin"] as? String == "local")
            #expect((object["image"] as? String)?.hasPrefix("blob:") == true)
        }
    }

    @Test func missingRequiredFieldsAreNamedAndNothingIsStored() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let environment = TestEnvironment.isolated(folder)
        let cat = folder.path + "/cat.jpg"
        try Self.jpeg.write(to: URL(fileURLWithPath: cat))
        let noImage = try await AggProcess.run(["insert", "faces", "name=Ada"], environment: environment)
        #expect(noImage.status == 64)
        #expect(noImage.standardError == "agg: a new faces record needs name and image; missing image (give --image FILE)\n")
        let noName = try await AggProcess.run(["insert", "faces", "--image", cat], environment: environment)
        #expect(noName.standardError == "agg: a new faces record needs name and image; missing name (give name=…)\n")
        // Zoo records take any field (the decoder's are open-ended), so a misspelt one is
        // only noticed as the required field missing.
        let misspelt = try await AggProcess.run(["insert", "zoo", "nmae=石虎", "--image", cat], environment: environment)
        #expect(misspelt.standardError == "agg: a new zoo record needs name and image; missing name (give name=…; 'nmae=' looks like a misspelling of it)\n")
        let notAnImage = try folder.write("notes.txt", "hello")
        let wrong = try await AggProcess.run(["insert", "faces", "name=Ada", "--image", notAnImage], environment: environment)
        #expect(wrong.standardError == "agg: \(notAnImage) is not an image agg can store (JPEG, PNG, GIF or WebP, judged by its content)\n")
        let list = try await AggProcess.run(["query", "faces", "--format", "ndjson"], environment: environment)
        #expect(list.status == 1)
        #expect(list.standardOutput == "")
    }

    @Test func renameAndDeleteLocalRecordsButNeverRemoteOnes() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let environment = TestEnvironment.isolated(folder)
        let photo = folder.path + "/ada.jpg"
        try Self.jpeg.write(to: URL(fileURLWithPath: photo))
        #expect(try await AggProcess.run(["insert", "faces", "name=Ada", "--image", photo], environment: environment).status == 0)
        #expect(try await AggProcess.run(["insert", "faces", "name=Bob", "--image", photo], environment: environment).status == 0)
        #expect(try await AggProcess.run(["update", "faces", "local-2", "name=Grace"], environment: environment).status == 0)
        let refused = try await AggProcess.run(["delete", "faces", "local-1"], environment: environment)
        #expect(refused.status == 64)
        #expect(refused.standardError == "agg: not deleting faces/local-1 without confirmation; add --yes\n")
        #expect(try await AggProcess.run(["delete", "faces", "local-1", "--yes"], environment: environment).status == 0)
        #expect(try await AggProcess.run(["insert", "faces", "name=Cy", "--image", photo], environment: environment).standardOutput == "inserted faces/local-3\n")
        let list = try await AggProcess.run(["query", "faces", "--format", "csv", "--fields", "name"], environment: environment)
        #expect(list.standardOutput == "key,origin,name\r\nlocal-3,local,Cy\r\nlocal-2,local,Grace\r\n")
        let offline = ["AGG_DATA_TAIPEI": "http://127.0.0.1:9"].merging(environment) { $1 }
        _ = try await AggProcess.run(["sync", "zoo"], environment: offline)
        let remote = try await AggProcess.run(["update", "zoo", "1", "name=x"], environment: offline)
        #expect(remote.status == 64)
        #expect(remote.standardError == "agg: '1' in source 'zoo' is a remote record; only your own records (keys like local-1) can be changed or deleted\n")
    }

    @Test func twoProcessesWritingOneStoreBothSucceed() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let environment = TestEnvironment.isolated(folder)
        let photo = folder.path + "/p.jpg"
        try Self.jpeg.write(to: URL(fileURLWithPath: photo))
        let processes = try (0..<4).map { index in
            try AggProcess.start(["insert", "faces", "name=P\(index)", "--image", photo], environment: environment)
        }
        for process in processes { await AggProcess.wait(for: process) }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let list = try await AggProcess.run(["query", "faces", "--format", "csv", "--fields", "name"], environment: environment)
        let keys = list.standardOutput.split(separator: "\r\n").dropFirst().map { $0.split(separator: ",")[0] }
        #expect(Set(keys) == ["local-1", "local-2", "local-3", "local-4"])
    }

    @Test func unknownStoreSchemesListTheSupportedOnes() async throws {
        let outcome = try await AggProcess.run(["query", "faces", "--store", "sqlit:/tmp/x"])
        #expect(outcome.status == 64)
        #expect(outcome.standardError == "agg: unknown store scheme 'sqlit'; did you mean 'sqlite'?; use one of sqlite:PATH, memory:, file:DIR\n")
    }

    @Test func aStoreThatCannotBeOpenedSaysWhatToCheck() async throws {
        let outcome = try await AggProcess.run(["query", "faces", "--store", "sqlite:/proc/no-such-folder/agg.sqlite"])
        #expect(outcome.status == 74)
        #expect(outcome.standardError.hasSuffix("check that its folder exists and can be written, or choose another place with --store sqlite:PATH or AGG_STORE\n"))
    }

    @Test(arguments: ["memory:", "file:", "sqlite:"])
    func everyStoreWorksFromTheCommandLine(scheme: String) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var environment = TestEnvironment.isolated(folder)
        environment["AGG_STORE"] = scheme == "memory:" ? scheme : scheme + folder.path + "/store"
        environment["AGG_DATA_TAIPEI"] = "http://127.0.0.1:9"
        let query = try await AggProcess.run(["query", "metro", "--format", "ndjson"], environment: environment)
        #expect(query.status == 0)
        #expect(query.standardOutput.split(separator: "\n").count == 25)
    }

    /// `~/` in a store URL is `$HOME`, as a shell would read it.
    @Test func aTildeInAStoreURLIsTheHomeFolder() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let environment = TestEnvironment.isolated(folder)
        let query = try await AggProcess.run(["query", "metro", "--offline", "--store", "sqlite:~/mine.sqlite"], environment: environment)
        #expect(query.status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.path + "/mine.sqlite"))
    }
}
