import AggCore
import AggTestSupport
import Foundation
import Testing

@Suite struct ImagesCommandTests {
    static let definitions = """
        pictures:
          title: Pictures on the loopback server
          request: { url: "${PICTURES_URL}/list.json", query: { count: "${PICTURES_COUNT:-0}" } }
          fields: { id: id, title: title, image: img }
          key: id
          search: title

        """

    /// A server with `count` records whose images are on the same server.
    func withPictures(count: Int, synced: Bool = true, _ body: ([String: String], FixtureServer, TemporaryDirectory) async throws -> Void) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let list: FixtureServer.Handler = { request in
            let base = "http://127.0.0.1:\(request.headers["host"]?.split(separator: ":").last ?? "0")"
            let shown = Int(request.query["count"] ?? "0").flatMap { $0 > 0 ? $0 : nil } ?? count
            return .json(.array((1...shown).map { number in
                ["id": .int(number), "title": .string("picture \(number)"), "img": .string("\(base)/img/\(number).png")]
            }))
        }
        try await withFixtureServer(ImageRoutes.handler(fallback: list)) { server in
            var environment = TestEnvironment.isolated(folder)
            environment["AGG_SOURCES"] = try folder.write("pictures.yaml", Self.definitions)
            environment["PICTURES_URL"] = server.baseURL
            if synced { #expect(try await AggProcess.run(["sync", "pictures"], environment: environment).status == 0) }
            try await body(environment, server, folder)
        }
    }

    @Test func threeHundredImagesDownloadInParallelOnceAndThenNeverAgain() async throws {
        try await withPictures(count: 300) { environment, server, _ in
            let first = try await AggProcess.run(["images", "fetch", "pictures", "--jobs", "6"], environment: environment)
            #expect(first.status == 0)
            #expect(first.standardOutput.hasPrefix("300 images: 300 fetched ("))
            #expect(first.standardOutput.hasSuffix("0 already cached, 0 failed\n"))
            #expect(server.peakConcurrency <= 6)
            let imageRequests = server.requests.filter { $0.path.hasPrefix("/img/") }.count
            #expect(imageRequests == 300)
            let second = try await AggProcess.run(["images", "fetch", "pictures", "--jobs", "6"], environment: environment)
            #expect(second.standardOutput.hasPrefix("300 images: 0 fetched ("))
            #expect(second.standardOutput.contains("300 already cached"))
            #expect(server.requests.filter { $0.path.hasPrefix("/img/") }.count == 300)
        }
    }

    /// Like a query, fetching images syncs a source that has nothing stored yet, and a
    /// misspelt field in its filters is named instead of fetching nothing in silence.
    @Test func fetchingSyncsFirstAndNamesAMisspeltField() async throws {
        try await withPictures(count: 4, synced: false) { environment, server, _ in
            let fetched = try await AggProcess.run(["images", "fetch", "pictures"], environment: environment)
            #expect(fetched.status == 0)
            #expect(fetched.standardOutput.hasPrefix("4 images: 4 fetched ("))
            #expect(server.requests.filter { $0.path == "/list.json" }.count == 1)
            let misspelt = try await AggProcess.run(["images", "fetch", "pictures", "--where", "titel=picture 2"], environment: environment)
            #expect(misspelt.status == 64)
            #expect(misspelt.standardError == "agg: no pictures record has a field 'titel'; did you mean 'title'?\n")
        }
    }

    @Test func pathShowAndJSONFindCachedImages() async throws {
        try await withPictures(count: 5) { environment, server, _ in
            let missing = try await AggProcess.run(["images", "path", "pictures", "2"], environment: environment)
            #expect(missing.status == 1)
            #expect(missing.standardError == "agg: the image of pictures/2 is not cached yet; run 'agg images fetch pictures'\n")
            _ = try await AggProcess.run(["images", "fetch", "pictures", "--prefix", "picture 2"], environment: environment)
            let path = try await AggProcess.run(["images", "path", "pictures", "2"], environment: environment)
            #expect(path.status == 0)
            let file = path.standardOutput.trimmingCharacters(in: .newlines)
            #expect(FileManager.default.contents(atPath: file) == ImageRoutes.png(2))
            let json = try await AggProcess.run(["query", "pictures", "--prefix", "picture 2", "--format", "ndjson"], environment: environment)
            #expect(json.standardOutput.contains("\"image_path\":\"\(file)\""))
            let show = try await AggProcess.run(["show", "pictures", "2"], environment: environment)
            #expect(show.standardOutput.contains("image file  \(file)"))
        }
    }

    @Test func localImagesAreFoundTheSameWay() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let environment = TestEnvironment.isolated(folder)
        let photo = folder.path + "/ada.png"
        try ImageRoutes.png(7).write(to: URL(fileURLWithPath: photo))
        _ = try await AggProcess.run(["insert", "faces", "name=Ada", "--image", photo], environment: environment)
        let path = try await AggProcess.run(["images", "path", "faces", "local-1"], environment: environment)
        #expect(path.status == 0)
        #expect(FileManager.default.contents(atPath: path.standardOutput.trimmingCharacters(in: .newlines)) == ImageRoutes.png(7))
    }

    @Test func pruneDeletesWhatNoRecordRefersTo() async throws {
        try await withPictures(count: 5) { environment, server, folder in
            _ = try await AggProcess.run(["images", "fetch", "pictures"], environment: environment)
            let nothing = try await AggProcess.run(["images", "prune"], environment: environment)
            #expect(nothing.standardOutput == "pruned 0 images and 0 index entries; freed 0 B\n")
            var fewer = environment
            fewer["PICTURES_COUNT"] = "2"
            #expect(try await AggProcess.run(["sync", "pictures"], environment: fewer).standardOutput.hasPrefix("pictures: 2 records"))
            let freed = (3...5).map { ImageRoutes.png($0).count }.reduce(0, +)
            let pruned = try await AggProcess.run(["images", "prune"], environment: environment)
            #expect(pruned.standardOutput == "pruned 3 images and 3 index entries; freed \(freed) B\n")
            #expect(try await AggProcess.run(["images", "path", "pictures", "2"], environment: environment).status == 0)
        }
    }
}
