#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A content-addressed cache of downloaded images (`$XDG_CACHE_HOME/agg/images`): each
/// image is stored once under the SHA-256 of its bytes, and an index maps every URL to the
/// file it gave. An image already cached is never downloaded again unless asked to
/// revalidate, which uses its `ETag` and `Last-Modified`. Only real images are kept: the body
/// must look like JPEG, PNG, GIF or WebP and must not be declared as something else.
///
/// Layout: `files/<ab>/<sha256>.<ext>` and `index/<ab>/<sha256 of the URL>.json`. Every
/// write is a rename, so several processes can share one cache.
public struct ImageCache: Sendable {
    /// The cache folder.
    public let directory: String

    /// A cache in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The standard cache of the user.
    public init(directories: AggDirectories) {
        self.init(directory: directories.cache + "/images")
    }

    /// What the index remembers about one URL.
    public struct Entry: Sendable, Hashable {
        /// The URL.
        public var url: String
        /// SHA-256 of the image.
        public var digest: String
        /// Its format.
        public var format: ImageFormat
        /// Bytes.
        public var size: Int
        /// Validators for revalidation.
        public var etag: String?
        /// Validators for revalidation.
        public var lastModified: String?
    }

    /// How one URL fared.
    public enum Outcome: Sendable, Hashable {
        case fetched(bytes: Int)
        case alreadyCached
        case revalidated
        case failed(reason: String)
    }

    /// What `fetch` did.
    public struct Report: Sendable {
        /// URLs asked for (without repeats).
        public var requested = 0
        /// Downloaded and stored.
        public var fetched = 0
        /// Found in the cache without a request.
        public var alreadyCached = 0
        /// Confirmed unchanged by the server (304).
        public var revalidated = 0
        /// Failures, by URL.
        public var failures: [(url: String, reason: String)] = []
        /// Bytes downloaded.
        public var bytes = 0
        /// Wall time in seconds.
        public var duration = 0.0

        /// One line: `300 images: 300 fetched (1.2 MB, 0.4 s), 0 already cached, 0 failed`.
        public var summary: String {
            var text = "\(requested) image\(requested == 1 ? "" : "s"): \(fetched) fetched (\(ByteCount.format(bytes)), \(DecimalText.tenths(duration)) s), \(alreadyCached) already cached"
            if revalidated > 0 { text += ", \(revalidated) unchanged" }
            text += ", \(failures.count) failed"
            if !failures.isEmpty {
                var reasons: [String: Int] = [:]
                for failure in failures { reasons[failure.reason, default: 0] += 1 }
                text += " (" + reasons.sorted { $0.value > $1.value }.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
            }
            return text
        }
    }

    /// Progress of a fetch.
    public struct Progress: Sendable {
        /// URLs finished.
        public var done: Int
        /// URLs in all.
        public var total: Int
        /// Bytes downloaded so far.
        public var bytes: Int
        /// Seconds since the start.
        public var elapsed: Double
    }

    // MARK: Paths

    static func shard(_ digest: String) -> String { String(digest.prefix(2)) }

    func filePath(digest: String, format: ImageFormat) -> String {
        "\(directory)/files/\(Self.shard(digest))/\(digest).\(format.fileExtension)"
    }

    func indexPath(url: String) -> String {
        let key = SHA256.hexDigest(of: Data(url.utf8))
        return "\(directory)/index/\(Self.shard(key))/\(key).json"
    }

    // MARK: Lookup

    /// The index entry of `url`, when its file is still there.
    public func entry(for url: String) -> Entry? {
        guard let data = FileManager.default.contents(atPath: indexPath(url: url)),
              let value = try? JSONParser.parse(data),
              let digest = value["digest"]?.stringValue, let formatName = value["format"]?.stringValue,
              let format = ImageFormat(rawValue: formatName) else { return nil }
        let entry = Entry(url: url, digest: digest, format: format, size: value["size"]?.intValue ?? 0,
                          etag: value["etag"]?.stringValue, lastModified: value["last_modified"]?.stringValue)
        return FileManager.default.fileExists(atPath: filePath(digest: digest, format: format)) ? entry : nil
    }

    /// True when nothing was ever cached here (no downloaded image, no exported blob).
    public var isEmpty: Bool {
        !FileManager.default.fileExists(atPath: directory + "/files")
    }

    /// The cached file of `url`, or nil.
    public func path(for url: String) -> String? {
        entry(for: url).map { filePath(digest: $0.digest, format: $0.format) }
    }

    /// The cached file of a record's image: a downloaded URL, or a stored blob already
    /// written out by `path(forBlob:data:)`.
    public func path(for image: ImageReference) -> String? {
        switch image {
        case .url(let url):
            return path(for: url)
        case .blob(let digest):
            return ImageFormat.allCases.map { filePath(digest: digest, format: $0) }.first { FileManager.default.fileExists(atPath: $0) }
        }
    }

    /// The file of a stored blob, written into the cache from `data` the first time, so
    /// local images can be opened like remote ones.
    public func path(forBlob digest: String, data: () async throws -> Data?) async throws -> String? {
        if let existing = path(for: .blob(digest)) { return existing }
        guard let bytes = try await data(), let format = ImageFormat.detect(bytes) else { return nil }
        let path = filePath(digest: digest, format: format)
        try write(bytes, to: path)
        return path
    }

    // MARK: Fetching

    /// Downloads every URL not cached yet (all of them, revalidating, when `refresh` is
    /// true) through `client`, whose multi handle bounds how many run at once.
    public func fetch(
        _ urls: [String], client: HTTPClient, refresh: Bool = false,
        progress: @Sendable (Progress) -> Void = { _ in }
    ) async -> Report {
        let started = Date()
        let unique = urls.uniqued()
        var report = Report(requested: unique.count)
        let window = max(1, client.configuration.maximumConcurrentTransfers * 2)
        await withTaskGroup(of: (String, Outcome).self) { group in
            var iterator = unique.makeIterator()
            func addNext() -> Bool {
                guard let url = iterator.next() else { return false }
                group.addTask { (url, await fetchOne(url, client: client, refresh: refresh)) }
                return true
            }
            for _ in 0..<window where !addNext() { break }
            var done = 0
            for await (url, outcome) in group {
                done += 1
                switch outcome {
                case .fetched(let bytes):
                    report.fetched += 1
                    report.bytes += bytes
                case .alreadyCached: report.alreadyCached += 1
                case .revalidated: report.revalidated += 1
                case .failed(let reason): report.failures.append((url, reason))
                }
                progress(Progress(done: done, total: unique.count, bytes: report.bytes, elapsed: Date().timeIntervalSince(started)))
                _ = addNext()
            }
        }
        report.failures.sort { $0.url < $1.url }
        report.duration = Date().timeIntervalSince(started)
        return report
    }

    func fetchOne(_ url: String, client: HTTPClient, refresh: Bool) async -> Outcome {
        let cached = entry(for: url)
        if cached != nil, !refresh { return .alreadyCached }
        var request = HTTPRequest(url: url, headers: ["Accept: image/*"])
        request.ifNoneMatch = cached?.etag
        request.ifModifiedSince = cached?.lastModified
        do {
            let response = try await client.send(request)
            if response.status == 304, cached != nil { return .revalidated }
            if let type = response.header("content-type")?.lowercased(), !type.hasPrefix("image/"), !type.hasPrefix("application/octet-stream") {
                return .failed(reason: "not an image (\(type.split(separator: ";").first.map(String.init) ?? type))")
            }
            guard let format = ImageFormat.detect(response.body) else { return .failed(reason: "not an image (unknown content)") }
            let digest = SHA256.hexDigest(of: response.body)
            let path = filePath(digest: digest, format: format)
            if !FileManager.default.fileExists(atPath: path) { try write(response.body, to: path) }
            var index = JSONObject()
            index["url"] = .string(url)
            index["digest"] = .string(digest)
            index["format"] = .string(format.rawValue)
            index["size"] = .int(response.body.count)
            if let etag = response.header("etag") { index["etag"] = .string(etag) }
            if let modified = response.header("last-modified") { index["last_modified"] = .string(modified) }
            try write(Data(JSONWriter.string(.object(index)).utf8), to: indexPath(url: url))
            return .fetched(bytes: response.body.count)
        } catch let error as HTTPError {
            switch error.kind {
            case .status(let status): return .failed(reason: "HTTP \(status)")
            case .timeout: return .failed(reason: "timed out")
            case .tooLarge: return .failed(reason: "larger than \(ImageFormat.maximumSize / 1_048_576) MiB")
            case .hostNotFound: return .failed(reason: "host not found")
            case .connection: return .failed(reason: "connection failed")
            case .cancelled: return .failed(reason: "cancelled")
            case .clientUnavailable: return .failed(reason: error.detail)
            }
        } catch {
            return .failed(reason: "cannot write the cache (\(SystemErrorText.describe(error)))")
        }
    }

    func write(_ data: Data, to path: String) throws {
        let folder = path.parentFolderPath
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    // MARK: Pruning

    /// What `prune` removed.
    public struct PruneReport: Sendable {
        /// Image files deleted.
        public var files = 0
        /// Index entries deleted.
        public var entries = 0
        /// Bytes freed.
        public var bytes = 0
    }

    /// Deletes index entries of URLs not in `referencedURLs`, then every file that neither a
    /// remaining entry nor `referencedBlobs` (digests of stored local images) points at.
    public func prune(referencedURLs: Set<String>, referencedBlobs: Set<String>) -> PruneReport {
        var report = PruneReport()
        var keptDigests = referencedBlobs
        let manager = FileManager.default
        let indexFolder = directory + "/index"
        for shard in (try? manager.contentsOfDirectory(atPath: indexFolder)) ?? [] {
            for name in (try? manager.contentsOfDirectory(atPath: "\(indexFolder)/\(shard)")) ?? [] {
                let path = "\(indexFolder)/\(shard)/\(name)"
                guard let data = manager.contents(atPath: path), let value = try? JSONParser.parse(data),
                      let url = value["url"]?.stringValue, referencedURLs.contains(url) else {
                    try? manager.removeItem(atPath: path)
                    report.entries += 1
                    continue
                }
                if let digest = value["digest"]?.stringValue { keptDigests.insert(digest) }
            }
        }
        let filesFolder = directory + "/files"
        for shard in (try? manager.contentsOfDirectory(atPath: filesFolder)) ?? [] {
            for name in (try? manager.contentsOfDirectory(atPath: "\(filesFolder)/\(shard)")) ?? [] {
                let digest = String(name.prefix { $0 != "." })
                guard !keptDigests.contains(digest) else { continue }
                let path = "\(filesFolder)/\(shard)/\(name)"
                let size = manager.fileSize(atPath: path) ?? 0
                if (try? manager.removeItem(atPath: path)) != nil {
                    report.files += 1
                    report.bytes += size
                }
            }
        }
        return report
    }
}
