#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which page of a page-numbered source to fetch.
public enum PageSelection: Sendable, Hashable {
    /// This page number.
    case number(Int)
    /// A random page within the total the source reported (Virtual Tourist's "New Collection").
    case random
}

/// How a sync should run.
public struct SyncOptions: Sendable {
    /// Parameter values, as given with `--param`.
    public var parameters: [String: String]
    /// A single page to fetch instead of walking them all (page-numbered sources).
    public var page: PageSelection?
    /// Pages fetched and decoded at once once the total is known. Two by default: decoding,
    /// not the network, is what limits a sync, and more pages in flight measured no faster
    /// while holding more memory.
    public var pageConcurrency: Int
    /// Whether a bundled snapshot may stand in when the source cannot be reached and nothing
    /// is stored for it yet.
    public var allowBundledSnapshot: Bool

    /// Creates options.
    public init(parameters: [String: String] = [:], page: PageSelection? = nil, pageConcurrency: Int = 2, allowBundledSnapshot: Bool = true) {
        self.parameters = parameters
        self.page = page
        self.pageConcurrency = pageConcurrency
        self.allowBundledSnapshot = allowBundledSnapshot
    }
}

/// Why a sync stopped fetching.
public enum StopReason: String, Sendable {
    case singleDocument = "single document"
    case totalReached = "total reached"
    case lastPage = "last page"
    case emptyPage = "empty page"
    case shortPage = "short page"
    case pageLimit = "page limit"
    case repeatedPage = "repeated page"
    case requestedPage = "requested page"
    case bundledSnapshot = "bundled snapshot"
}

/// What a finished sync did.
public struct SyncReport: Sendable {
    /// The collection synced.
    public var collection: CollectionID
    /// Why it stopped.
    public var stopReason: StopReason
    /// Pages fetched.
    public var pages: Int
    /// Records stored.
    public var records: Int
    /// Records skipped as unreadable.
    public var skipped: Int
    /// Warnings, such as skipped records and repeated pages.
    public var warnings: [String]
    /// Bytes received.
    public var bytes: Int
    /// Wall time in seconds.
    public var duration: Double
    /// The number of pages the source reported.
    public var totalPages: Int?
    /// The page stored, for single-page fetches.
    public var currentPage: Int?
    /// Network or bundled snapshot.
    public var provenance: SyncState.Provenance

    /// One line: `zoo: 313 records in 1 page (312.5 KB, 0.2 s; stopped: total reached)`.
    public var summary: String {
        var text = "\(collection): \(records) record\(records == 1 ? "" : "s") in \(pages) page\(pages == 1 ? "" : "s")"
        text += " (\(ByteCount.format(bytes)), \(DecimalText.tenths(duration)) s; stopped: \(stopReason.rawValue)"
        if skipped > 0 { text += "; \(skipped) skipped" }
        if case .bundledSnapshot(let recorded) = provenance { text += "; bundled snapshot recorded \(recorded)" }
        return text + ")"
    }
}

/// Progress of a sync, for display.
public enum SyncEvent: Sendable {
    /// A page was stored.
    case page(number: Int, records: Int, totalRecords: Int, expectedRecords: Int?, bytes: Int)
    /// Something the user should know that does not stop the sync.
    case warning(String)
    /// Information, such as falling back to the bundled snapshot.
    case notice(String)
}

/// A sync that failed; nothing was changed in the store.
public struct SyncError: Error, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: Sendable, Hashable {
        /// The network or the server.
        case network
        /// The source's response (an error payload, not JSON, no records).
        case response
        /// The source is local: there is nothing to sync.
        case localSource
    }

    /// The kind.
    public var kind: Kind
    /// The source.
    public var source: String
    /// What happened, redacted.
    public var message: String
    /// The source's own error code (Flickr's), when it gave one.
    public var code: String?

    public var description: String { "\(source): \(message)" }
}

/// Human-readable byte counts.
public enum ByteCount {
    /// `512 B`, `12.3 KB`, `4.5 MB`.
    public static func format(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) B" }
        if bytes < 1024 * 1024 { return DecimalText.tenths(Double(bytes) / 1024) + " KB" }
        return DecimalText.tenths(Double(bytes) / 1_048_576) + " MB"
    }
}

/// The recorded responses that ship with an application, used when a source cannot be
/// reached and nothing is stored yet. The application provides them; the library ships none.
public protocol BundledSnapshotProvider: Sendable {
    /// The bundled response of `source`, if there is one.
    func snapshot(for source: String) -> BundledSnapshot?
}

/// One recorded response.
public struct BundledSnapshot: Sendable {
    /// The response body.
    public var body: Data
    /// The day it was recorded (`2026-03-25`).
    public var recorded: String

    /// Creates a bundled snapshot.
    public init(body: Data, recorded: String) {
        self.body = body
        self.recorded = recorded
    }
}
