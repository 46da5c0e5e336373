/// The decoder for definitions without `decoder:`: every canonical field is read from its
/// path in the raw record (the mapping itself is applied by `FieldMapper`).
public struct GenericDecoder: RecordDecoder {
    /// Creates the generic decoder.
    public init() {}

    /// `"generic"`; definitions get it by leaving `decoder:` out.
    public var name: String { "generic" }

    /// No plug-in fields: an empty object, to which the definition's mapping is applied.
    public func decode(_ raw: JSONValue, source: SourceDefinition) -> DecodeOutcome {
        guard case .object = raw else {
            return .skipped(reason: "a record must be an object, found \(raw.kindDescription)")
        }
        return .record(JSONObject(), warnings: [])
    }
}
