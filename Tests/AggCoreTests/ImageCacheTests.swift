@testable import AggCore
import AggTestSupport
import Foundation
import Testing

@Suite struct ImageCacheTests {
    static func client(jobs: Int = 4) -> HTTPClientConfiguration {
        var configuration = HTTPClientConfiguration()
        configuration.maximumConcurrentTransfers = jobs
        configuration.totalTimeout = 30
        configuration.retry.maximumAttempts = 1
        return configuration
    }

    @Test func keepsOnlyRealImagesAndReportsEveryFailure() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let cache = ImageCache(directory: folder.path)
        try await withFixtureServer(ImageRoutes.handler()) { server in
            let urls = (1...5).map { "\(server.baseURL)/img/\($0).png" } + ["missing", "page", "fake"].map { "\(server.baseURL)/\($0).png" }
            #expect(cache.isEmpty)
            let report = await HTTPClient.withHTTPClient(Self.client()) { client in await cache.fetch(urls, client: client) }
            #expect(!cache.isEmpty)
            #expect(report.requested == 8)
            #expect(report.fetched == 5)
            #expect(Dictionary(uniqueKeysWithValues: report.failures.map { ($0.url.replacingOccurrences(of: server.baseURL, with: ""), $0.reason) }) == [
                "/missing.png": "HTTP 404", "/page.png": "not an image (text/html)", "/fake.png": "not an image (unknown content)",
            ])
            let path = try #require(cache.path(for: "\(server.baseURL)/img/3.png"))
            #expect(FileManager.default.contents(atPath: path) == ImageRoutes.png(3))
            #expect(path.hasSuffix("/\(SHA256.hexDigest(of: ImageRoutes.png(3))).png"))
            #expect(cache.path(for: "\(server.baseURL)/page.png") == nil)
        }
    }

    @Test func aSlowImageIsARecordedTimeout() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        var configuration = Self.client()
        configuration.totalTimeout = 0.5
        try await withFixtureServer(ImageRoutes.handler(slowDelay: 30)) { server in
            let report = await HTTPClient.withHTTPClient(configuration) { client in
                await ImageCache(directory: folder.path).fetch([server.baseURL + "/slow.png"], client: client)
            }
            #expect(report.failures.map(\.reason) == ["timed out"])
        }
    }

    @Test func nothingIsDownloadedTwiceAndRefreshRevalidates() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let cache = ImageCache(directory: folder.path)
        try await withFixtureServer(ImageRoutes.handler()) { server in
            let urls = (1...20).map { "\(server.baseURL)/img/\($0).png" }
            _ = await HTTPClient.withHTTPClient(Self.client()) { client in await cache.fetch(urls + urls, client: client) }
            #expect(server.requests.count == 20)
            let again = await HTTPClient.withHTTPClient(Self.client()) { client in await cache.fetch(urls, client: client) }
            #expect(again.alreadyCached == 20 && again.fetched == 0)
            #expect(server.requests.count == 20)
            let refreshed = await HTTPClient.withHTTPClient(Self.client()) { client in await cache.fetch(urls, client: client, refresh: true) }
            #expect(refreshed.revalidated == 20)
            #expect(server.requests.dropFirst(20).allSatisfy { $0.headers["if-none-match"] != nil })
        }
    }

    @Test func theConcurrencyBoundIsRespected() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        try await withFixtureServer(ImageRoutes.handler()) { server in
            let urls = (1...60).map { "\(server.baseURL)/img/\($0).png" }
            let report = await HTTPClient.withHTTPClient(Self.client(jobs: 3)) { client in
                await ImageCache(directory: folder.path).fetch(urls, client: client)
            }
            #expect(report.fetched == 60)
            #expect(server.peakConcurrency <= 3)
        }
    }

    @Test func pruneRemovesOnlyWhatNothingRefersTo() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let cache = ImageCache(directory: folder.path)
        try await withFixtureServer(ImageRoutes.handler()) { server in
            let urls = (1...6).map { "\(server.baseURL)/img/\($0).png" }
            _ = await HTTPClient.withHTTPClient(Self.client()) { client in await cache.fetch(urls, client: client) }
            let blob = ImageRoutes.png(99)
            let blobDigest = SHA256.hexDigest(of: blob)
            let blobPath = try await cache.path(forBlob: blobDigest) { blob }
            let report = cache.prune(referencedURLs: Set(urls.prefix(2)), referencedBlobs: [blobDigest])
            #expect(report.files == 4 && report.entries == 4)
            #expect(report.bytes == (3...6).map { ImageRoutes.png($0).count }.reduce(0, +))
            #expect(cache.path(for: urls[0]) != nil && cache.path(for: urls[1]) != nil)
            #expect(cache.path(for: urls[2]) == nil)
            #expect(blobPath.map { FileManager.default.fileExists(atPath: $0) } == true)
        }
    }
}
