#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Aggregator {
    /// The image URLs of the records `query` matches, in order, without repeats.
    public func imageURLs(matching query: RecordQuery) async throws -> [String] {
        try await store.records(matching: query).compactMap { record in
            if case .url(let url)? = record.image { return url }
            return nil
        }.uniqued()
    }

    /// Every image URL and blob digest any stored record refers to, across every source and
    /// collection: what `ImageCache.prune` must keep.
    public func referencedImages() async throws -> (urls: Set<String>, blobs: Set<String>) {
        var urls: Set<String> = []
        var blobs: Set<String> = []
        for source in registry.sources {
            var collections = try await store.collections(of: source.name)
            if collections.isEmpty { collections = [CollectionID(source: source.name)] }
            for collection in collections {
                for record in try await store.records(matching: RecordQuery(collection: collection)) {
                    switch record.image {
                    case .url(let url)?: urls.insert(url)
                    case .blob(let digest)?: blobs.insert(digest)
                    case nil: break
                    }
                }
            }
        }
        return (urls, blobs)
    }

    /// The file of `record`'s image in `cache`: the cached download, or the stored blob
    /// written out into the cache. Nil when there is no image or it was not downloaded yet.
    public func imagePath(of record: Record, in cache: ImageCache) async throws -> String? {
        switch record.image {
        case .url(let url)?: return cache.path(for: url)
        case .blob(let digest)?: return try await cache.path(forBlob: digest) { try await store.blob(digest: digest) }
        case nil: return nil
        }
    }
}
