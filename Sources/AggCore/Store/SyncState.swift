#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What the store remembers about a collection's last successful sync.
public struct SyncState: Sendable, Hashable {
    /// Where the stored snapshot came from.
    public enum Provenance: Sendable, Hashable {
        /// Fetched from the network.
        case network
        /// Seeded from the snapshot bundled with agg, recorded on the given day (`2026-03-25`).
        case bundledSnapshot(recorded: String)
    }

    /// When the snapshot was stored.
    public var syncedAt: Date
    /// Why fetching stopped (`last page`, `total reached`, `max pages`, …).
    public var stopReason: String
    /// Records in the snapshot.
    public var recordCount: Int
    /// Pages fetched.
    public var pagesFetched: Int
    /// The number of pages the source reported, when it did.
    public var totalPages: Int?
    /// The page the snapshot holds, for page-at-a-time collections (Flickr).
    public var currentPage: Int?
    /// Network or bundled snapshot.
    public var provenance: Provenance

    /// Creates a sync state.
    public init(
        syncedAt: Date, stopReason: String, recordCount: Int, pagesFetched: Int,
        totalPages: Int? = nil, currentPage: Int? = nil, provenance: Provenance = .network
    ) {
        self.syncedAt = syncedAt
        self.stopReason = stopReason
        self.recordCount = recordCount
        self.pagesFetched = pagesFetched
        self.totalPages = totalPages
        self.currentPage = currentPage
        self.provenance = provenance
    }

    /// The stored form of `provenance`.
    public var provenanceText: String {
        switch provenance {
        case .network: "network"
        case .bundledSnapshot(let recorded): "bundled:\(recorded)"
        }
    }

    /// Reads the stored form of a provenance.
    public static func provenance(fromText text: String) -> Provenance {
        text.hasPrefix("bundled:") ? .bundledSnapshot(recorded: String(text.dropFirst(8))) : .network
    }
}
