import Foundation

/// One record of a source, remote or the user's own.
public struct Record: Sendable, Hashable {
    /// Where a record came from.
    public enum Origin: String, Sendable, CaseIterable {
        /// Fetched from the source's endpoint; replaced by every sync.
        case remote
        /// Added by the user; never touched by a sync.
        case local
    }

    /// The source's name.
    public var source: String
    /// The record's key: the definition's key fields for remote records, `local-N` for local ones.
    public var key: String
    /// Remote or local.
    public var origin: Origin
    /// For local records: the sequence number, strictly increasing per source and never reused.
    public var sequence: Int?
    /// The canonical fields.
    public var fields: JSONObject
    /// The raw document as the source sent it (remote records only).
    public var raw: JSONValue?
    /// The record's image.
    public var image: ImageReference?
    /// When a remote record was fetched.
    public var fetchedAt: Date?
    /// When a local record was created.
    public var createdAt: Date?
    /// When a local record was last changed.
    public var updatedAt: Date?

    /// Creates a record.
    public init(
        source: String, key: String, origin: Origin, sequence: Int? = nil, fields: JSONObject,
        raw: JSONValue? = nil, image: ImageReference? = nil, fetchedAt: Date? = nil,
        createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.source = source
        self.key = key
        self.origin = origin
        self.sequence = sequence
        self.fields = fields
        self.raw = raw
        self.image = image
        self.fetchedAt = fetchedAt
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The key of the local record with sequence number `sequence`.
    public static func localKey(_ sequence: Int) -> String { "local-\(sequence)" }
}

/// A record's picture: a remote URL, or an image the user added, stored as a blob.
public enum ImageReference: Sendable, Hashable, CustomStringConvertible {
    /// A picture on the web.
    case url(String)
    /// A stored blob, by the SHA-256 of its bytes (lowercase hex).
    case blob(String)

    /// `url:…` or `blob:…`, the form stores keep.
    public var description: String {
        switch self {
        case .url(let url): "url:\(url)"
        case .blob(let digest): "blob:\(digest)"
        }
    }

    /// Reads the stored form back.
    public init?(stored text: String) {
        if text.hasPrefix("url:") { self = .url(String(text.dropFirst(4))) }
        else if text.hasPrefix("blob:") { self = .blob(String(text.dropFirst(5))) }
        else { return nil }
    }
}

/// A remote record ready to be stored: what a sync produces.
public struct RemoteRecord: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The canonical fields.
    public var fields: JSONObject
    /// The raw document.
    public var raw: JSONValue
    /// The image URL, if any.
    public var imageURL: String?
    /// The folded text of the source's search field, for prefix lookups.
    public var searchText: String?
    /// The raw document exactly as the source sent it (UTF-8 JSON), when the producer kept
    /// it; stores that keep JSON text write it instead of encoding `raw` again.
    public var rawText: [UInt8]?
    /// `fields` as compact JSON, when the producer encoded them already; stores that keep
    /// JSON text write it instead of encoding `fields` themselves. The sync pipeline fills it
    /// while decoding pages in parallel, so the store's single writer does not have to.
    public var fieldsText: [UInt8]?

    /// Creates a remote record.
    public init(key: String, fields: JSONObject, raw: JSONValue, imageURL: String? = nil, searchText: String? = nil) {
        self.key = key
        self.fields = fields
        self.raw = raw
        self.imageURL = imageURL
        self.searchText = searchText
    }
}

/// A new local record: fields, and an image blob already stored or a URL.
public struct LocalRecordDraft: Sendable, Hashable {
    /// The canonical fields.
    public var fields: JSONObject
    /// The image, if any.
    public var image: ImageReference?
    /// The folded text of the source's search field.
    public var searchText: String?

    /// Creates a draft.
    public init(fields: JSONObject, image: ImageReference? = nil, searchText: String? = nil) {
        self.fields = fields
        self.image = image
        self.searchText = searchText
    }
}
