/// Turns a source's responses into records with canonical fields.
///
/// A decoder is a plug-in: a module in `Plugins/` provides one, and the application registers
/// it in a `DecoderRegistry` under the name definitions use (`decoder: taipei-zoo`). Sources
/// without `decoder:` use `GenericDecoder`, which applies the definition's field mapping.
///
/// Contract:
/// - `records(in:source:)` sees each whole response. It returns the raw records of that page,
///   or throws a `SourceResponseError` when the response says the request failed (Flickr's
///   `stat: fail`); a throw aborts the sync and leaves the stored snapshot untouched.
/// - `decode(_:source:)` sees one raw record and must never crash on bad data: it returns the
///   fields it could read, or `.skipped` with a reason, which the sync counts and reports.
/// - The definition's own `fields:` mapping is applied by the core after the decoder, so a
///   user can add fields to a plug-in's output without writing Swift.
/// - Decoders hold no mutable state and may be called from several tasks at once.
public protocol RecordDecoder: Sendable {
    /// The name definitions use in `decoder:`.
    var name: String { get }

    /// The raw records of one response.
    func records(in document: JSONValue, source: SourceDefinition) throws -> [JSONValue]

    /// The canonical fields of one raw record.
    func decode(_ raw: JSONValue, source: SourceDefinition) -> DecodeOutcome
}

extension RecordDecoder {
    /// The array at the definition's `records:` path.
    public func records(in document: JSONValue, source: SourceDefinition) throws -> [JSONValue] {
        try Self.array(at: source.records, in: document)
    }

    /// The array at `path`, or an error that says what was found instead.
    public static func array(at path: RecordPath, in document: JSONValue) throws -> [JSONValue] {
        guard let value = path.value(in: document) else {
            throw SourceResponseError(message: "the response has nothing at '\(path)', where the records should be")
        }
        guard let array = value.arrayValue else {
            throw SourceResponseError(message: "expected a list of records at '\(path)', found \(value.kindDescription)")
        }
        return array
    }
}

/// What decoding one raw record gave.
public enum DecodeOutcome: Sendable {
    /// The canonical fields read, with notes about what could not be read.
    case record(JSONObject, warnings: [String])
    /// The record could not be used.
    case skipped(reason: String)
}

/// A response that the source itself marks as failed, or that has no records where the
/// definition says they are.
public struct SourceResponseError: Error, Sendable, CustomStringConvertible {
    /// What the response said.
    public var message: String
    /// The source's own error code, when it gives one (Flickr's `code`).
    public var code: String?

    /// Creates the error.
    public init(message: String, code: String? = nil) {
        self.message = message
        self.code = code
    }

    public var description: String {
        if let code { return "\(message) (code \(code))" }
        return message
    }
}

extension JSONValue {
    /// What kind of value this is, in words.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .int, .double: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }
}
