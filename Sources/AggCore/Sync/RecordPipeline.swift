#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns one response body into remote records: JSON parsing (with a JSONP wrapper removed),
/// the decoder plug-in, the definition's own field mapping, the key, the image and the search
/// text. Bad records are skipped with a reason, never silently.
public struct RecordPipeline: Sendable {
    /// The source.
    public let definition: SourceDefinition
    /// Its decoder.
    public let decoder: any RecordDecoder

    /// Creates the pipeline of a source.
    public init(definition: SourceDefinition, decoder: any RecordDecoder) {
        self.definition = definition
        self.decoder = decoder
    }

    /// What one page gave.
    public struct Page: Sendable {
        /// The whole document, for pagination fields.
        public var document: JSONValue
        /// The records decoded.
        public var records: [RemoteRecord]
        /// Why records were skipped or only partly read.
        public var warnings: [String]
        /// Records skipped.
        public var skipped: Int
    }

    /// Parses `body` and runs `use` with the document and the original text of its arrays'
    /// elements, explaining what is wrong when it is not JSON.
    static func withDocument<T>(from body: Data, _ use: (JSONValue, ElementText) throws -> T) throws -> T {
        try unwrappingJSONP(body).withUnsafeBytes { raw in
            let parsed: (JSONValue, ElementText)
            do throws(JSONParseError) {
                parsed = try JSONParser.parseKeepingElementText(buffer: raw.bindMemory(to: UInt8.self))
            } catch {
                throw Self.explain(error, in: body)
            }
            return try use(parsed.0, parsed.1)
        }
    }

    /// Why `body` is not the JSON expected.
    static func explain(_ error: JSONParseError, in body: Data) -> SourceResponseError {
        let start = String(decoding: body.prefix(200), as: UTF8.self).trimmingSpaces
        if start.hasPrefix("<") {
            return SourceResponseError(message: "the server answered with HTML instead of JSON (an error page?): \(HTTPClient.excerpt(body).dropFirst(2))")
        }
        if body.isEmpty { return SourceResponseError(message: "the server answered with an empty body instead of JSON") }
        return SourceResponseError(message: "the response is not valid JSON (\(error))")
    }

    /// `callback({...})` or `callback({...});` → `{...}`; anything else unchanged.
    static func unwrappingJSONP(_ body: Data) -> Data {
        guard let first = body.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first | 0x20),
              let open = body.firstIndex(of: UInt8(ascii: "(")) else { return body }
        let name = body[body.startIndex..<open]
        guard name.allSatisfy({ ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") || $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: ".") }) else { return body }
        var end = body.endIndex
        while end > open, let last = body[..<end].last, last == UInt8(ascii: ";") || last == 0x20 || last == 0x0A || last == 0x0D { end -= 1 }
        guard end > open + 1, body[end - 1] == UInt8(ascii: ")") else { return body }
        return body[(open + 1)..<(end - 1)]
    }

    /// Decodes one response body.
    public func page(from body: Data) throws -> Page {
        try Self.withDocument(from: body) { document, elementText in
            try page(document: document, elementText: elementText)
        }
    }

    private func page(document: JSONValue, elementText: ElementText) throws -> Page {
        let raws = try decoder.records(in: document, source: definition)
        let texts = elementText.texts(of: raws)
        var records: [RemoteRecord] = []
        records.reserveCapacity(raws.count)
        var warnings: [String] = []
        var skipped = 0
        for (index, raw) in raws.enumerated() {
            switch decode(raw) {
            case .success((var record, let notes)):
                record.keepAsText(rawText: texts?[index])
                records.append(record)
                warnings += notes
            case .failure(let reason):
                skipped += 1
                warnings.append(reason.message)
            }
        }
        return Page(document: document, records: records, warnings: warnings, skipped: skipped)
    }

    struct Skip: Error { var message: String }

    /// One raw record through the decoder, the field mapping and the key.
    func decode(_ raw: JSONValue) -> Result<(RemoteRecord, [String]), Skip> {
        var fields: JSONObject
        var notes: [String]
        switch decoder.decode(raw, source: definition) {
        case .skipped(let reason): return .failure(Skip(message: reason))
        case .record(let decoded, let warnings):
            fields = decoded
            notes = warnings
        }
        for mapping in definition.fields {
            guard let value = mapping.path.value(in: raw), !value.isNull else { continue }
            if let converted = Self.convert(value, to: mapping.type) {
                fields[mapping.name] = converted
            } else {
                notes.append("field '\(mapping.name)': cannot read \(value.kindDescription) as \(mapping.type?.rawValue ?? "a value")")
            }
        }
        let keyParts = definition.key.map { fields[$0]?.textValue }
        if !definition.key.isEmpty, keyParts.contains(where: { $0 == nil || $0!.isEmpty }) {
            let missing = zip(definition.key, keyParts).filter { $0.1 == nil || $0.1!.isEmpty }.map(\.0)
            return .failure(Skip(message: "a record without \(missing.joined(separator: ", ")) (its key) was skipped"))
        }
        let key = definition.key.isEmpty ? SHA256.hexDigest(of: Data(JSONWriter.string(raw).utf8)).prefix(16).description
            : keyParts.map { $0! }.joined(separator: "/")
        let imageURL = definition.image.flatMap { fields[$0]?.stringValue }.flatMap { $0.isEmpty ? nil : $0 }
        let record = RemoteRecord(key: key, fields: fields, raw: raw, imageURL: imageURL,
                                  searchText: TextFolding.searchText(of: fields, field: definition.search))
        return .success((record, notes))
    }

    /// A value converted to a field type; nil when it cannot be.
    static func convert(_ value: JSONValue, to type: FieldMapping.FieldType?) -> JSONValue? {
        switch type {
        case nil: return value
        case .string?: return value.textValue.map(JSONValue.string) ?? .string(JSONWriter.string(value))
        case .integer?: return value.intValue.map(JSONValue.int)
        case .number?: return value.numberValue.map(JSONValue.double)
        case .boolean?:
            if case .bool = value { return value }
            switch value.textValue?.lowercased() {
            case "true", "1", "yes": return .bool(true)
            case "false", "0", "no": return .bool(false)
            default: return nil
            }
        case .datetime?: return value.textValue.map(JSONValue.string)
        case .list?:
            if case .array = value { return value }
            return .array([value])
        }
    }
}
