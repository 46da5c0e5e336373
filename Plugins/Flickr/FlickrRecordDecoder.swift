import AggCore

/// Decodes `flickr.photos.search` responses (`format=json&nojsoncallback=1`).
///
/// A `{"stat":"fail","code":…,"message":…}` body (Flickr answers errors with HTTP 200) throws
/// a `SourceResponseError` carrying Flickr's code and message, so no snapshot is replaced.
/// Numbers may arrive as strings. The image is `url_m` when the response has it, otherwise it
/// is built from `server`, `id` and `secret`; a photo whose server is `"0"` has no image.
public struct FlickrRecordDecoder: RecordDecoder {
    /// Creates the decoder.
    public init() {}

    /// `flickr`.
    public var name: String { "flickr" }

    public func records(in document: JSONValue, source: SourceDefinition) throws -> [JSONValue] {
        if document["stat"]?.stringValue == "fail" {
            let message = document["message"]?.textValue ?? "Flickr reported a failure without a message"
            throw SourceResponseError(message: "Flickr: \(message)", code: document["code"]?.textValue)
        }
        return try Self.array(at: source.records, in: document)
    }

    public func decode(_ raw: JSONValue, source: SourceDefinition) -> DecodeOutcome {
        guard let photo = raw.objectValue else {
            return .skipped(reason: "a photo must be an object, found \(raw.kindDescription)")
        }
        guard let id = photo["id"]?.textValue, !id.isEmpty else {
            return .skipped(reason: "a photo has no id")
        }
        var fields = JSONObject()
        fields["id"] = .string(id)
        fields["title"] = .string(photo["title"]?.textValue?.trimmingSpaces ?? "")
        for key in ["owner", "secret", "server"] {
            if let text = photo[key]?.textValue { fields[key] = .string(text) }
        }
        for key in ["farm", "ispublic", "isfriend", "isfamily"] {
            if let number = photo[key]?.intValue { fields[key] = .int(number) }
        }
        if let url = photo["url_m"]?.stringValue, !url.isEmpty {
            fields["image"] = .string(url)
            if let width = photo["width_m"]?.intValue { fields["width"] = .int(width) }
            if let height = photo["height_m"]?.intValue { fields["height"] = .int(height) }
        } else if let server = photo["server"]?.textValue, server != "0", !server.isEmpty,
                  let secret = photo["secret"]?.textValue, !secret.isEmpty {
            fields["image"] = .string("https://live.staticflickr.com/\(server)/\(id)_\(secret)_m.jpg")
        }
        return .record(fields, warnings: [])
    }
}
