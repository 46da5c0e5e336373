#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
    public var fields: JSONObject {
        didSet { fieldsText = nil }
    }
    /// `fields` as the compact JSON a store keeps them in, when the record was read from such
    /// a store and `fields` has not changed since: JSON output copies it instead of encoding
    /// `fields` again. It is not part of the record's value (equality and hashing ignore it).
    public private(set) var fieldsText: [UInt8]?
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

    /// Keeps `text` as `fieldsText`; it must be `JSONWriter.bytes(.object(fields))`, the form
    /// the stores write.
    package mutating func keepFieldsText(_ text: [UInt8]) {
        fieldsText = text
    }

    public static func == (lhs: Record, rhs: Record) -> Bool {
        lhs.source == rhs.source && lhs.key == rhs.key && lhs.origin == rhs.origin && lhs.sequence == rhs.sequence
            && lhs.fields == rhs.fields && lhs.raw == rhs.raw && lhs.image == rhs.image && lhs.fetchedAt == rhs.fetchedAt
            && lhs.createdAt == rhs.createdAt && lhs.updatedAt == rhs.updatedAt
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(key)
        hasher.combine(fields)
    }
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
///
/// Its fields and raw document are held either as values or, once `keepAsText(rawText:)`
/// has been called, as JSON text only: the form stores write, and a fraction of the memory
/// of the parsed values. Reading `fields` or `raw` then parses the text again.
public struct RemoteRecord: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The image URL, if any.
    public var imageURL: String?
    /// The folded text of the source's search field, for prefix lookups.
    public var searchText: String?
    /// `fields` as compact JSON, once the record is kept as text.
    public private(set) var fieldsText: [UInt8]?
    /// `raw` as the source sent it (UTF-8 JSON), once the record is kept as text with it.
    public private(set) var rawText: [UInt8]?
    private var fieldsValue: JSONObject?
    private var rawValue: JSONValue?

    /// Creates a remote record.
    public init(key: String, fields: JSONObject, raw: JSONValue, imageURL: String? = nil, searchText: String? = nil) {
        self.key = key
        self.fieldsValue = fields
        self.rawValue = raw
        self.imageURL = imageURL
        self.searchText = searchText
    }

    /// The canonical fields.
    public var fields: JSONObject {
        get { fieldsValue ?? fieldsText.flatMap { try? JSONParser.parse($0).objectValue } ?? JSONObject() }
        set {
            fieldsValue = newValue
            fieldsText = nil
        }
    }

    /// The raw document.
    public var raw: JSONValue {
        get { rawValue ?? rawText.flatMap { try? JSONParser.parse($0) } ?? .null }
        set {
            rawValue = newValue
            rawText = nil
        }
    }

    /// Keeps the fields as compact JSON and, when `rawText` (the source's own text of the
    /// raw document) is given, the raw document as that text, dropping the parsed values.
    /// The sync pipeline does this in its parallel decoding tasks, so the store's single
    /// writer neither encodes nor frees them.
    public mutating func keepAsText(rawText: [UInt8]?) {
        fieldsText = JSONWriter.bytes(.object(fields), expectedSize: (rawText?.count ?? 0) + 256)
        fieldsValue = nil
        if let rawText {
            self.rawText = rawText
            rawValue = nil
        }
    }

    public static func == (lhs: RemoteRecord, rhs: RemoteRecord) -> Bool {
        lhs.key == rhs.key && lhs.imageURL == rhs.imageURL && lhs.searchText == rhs.searchText
            && lhs.fields == rhs.fields && lhs.raw == rhs.raw
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(key)
        hasher.combine(fields)
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
