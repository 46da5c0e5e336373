#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An image given for a new local record.
public enum ImageInput: Sendable, Hashable {
    /// A file to read and store as a blob.
    case file(String)
    /// Bytes to store as a blob.
    case data(Data)
}

/// A user's input that agg refuses, with a message saying what to change.
public struct InputError: Error, Sendable, CustomStringConvertible {
    /// The message.
    public var description: String

    /// Creates the error.
    public init(_ description: String) {
        self.description = description
    }
}

extension Aggregator {
    /// Adds the user's own record to `source`. Required fields (the definition's
    /// `insert.required`) must be present and non-empty, the image must really be an image
    /// within the size limit; otherwise nothing is stored and an `InputError` says what is
    /// missing or wrong.
    public func insert(into source: String, fields given: [String: String], image: ImageInput? = nil) async throws -> Record {
        let definition = try self.source(named: source)
        var fields = try Self.convert(given, for: definition)
        let blob = try image.map(Self.blob)
        let imageField = definition.image ?? "image"
        var imageReference: ImageReference?
        if let blob {
            imageReference = .blob(blob.digest)
        } else if let url = fields[imageField]?.stringValue, !url.isEmpty {
            imageReference = .url(url)
        }
        let missing = definition.insert.required.filter { field in
            if field == imageField { return imageReference == nil }
            return fields[field]?.textValue.map { $0.trimmingSpaces.isEmpty } ?? true
        }
        if !missing.isEmpty {
            let hints = missing.map { field in
                if field == imageField { return "\(field) (give --image FILE)" }
                let misspelt = given.keys.filter { Suggestion.closest(to: $0, among: [field]) != nil }.sorted().first
                return "\(field) (give \(field)=…\(misspelt.map { "; '\($0)=' looks like a misspelling of it" } ?? ""))"
            }
            throw InputError("a new \(source) record needs \(Self.list(definition.insert.required)); missing \(Self.list(hints))")
        }
        if blob != nil { fields[imageField] = nil }
        let draft = LocalRecordDraft(fields: fields, image: imageReference, searchText: TextFolding.searchText(of: fields, field: definition.search))
        return try await store.insertLocal(source: source, draft: draft, blob: blob)
    }

    /// Changes fields of the user's record `key` (an empty value removes a field). Remote
    /// records cannot be changed.
    public func update(in source: String, key: String, fields given: [String: String]) async throws -> Record {
        let definition = try self.source(named: source)
        guard !given.isEmpty else { throw InputError("nothing to change; give field=value pairs") }
        var changes = try Self.convert(given.filter { !$0.value.isEmpty }, for: definition)
        for (name, value) in given where value.isEmpty {
            if definition.insert.required.contains(name) {
                throw InputError("'\(name)' is required for \(source) records and cannot be removed")
            }
            changes[name] = .null
        }
        return try await store.updateLocal(source: source, key: key, changes: changes, searchField: definition.search)
    }

    /// Deletes the user's record `key` and returns it. Remote records cannot be deleted.
    public func delete(from source: String, key: String) async throws -> Record {
        _ = try self.source(named: source)
        return try await store.deleteLocal(source: source, key: key)
    }

    /// Field values from text, converted to the definition's field types, with unknown
    /// fields refused when the definition lists its fields and has no decoder.
    static func convert(_ given: [String: String], for definition: SourceDefinition) throws -> JSONObject {
        var fields = JSONObject()
        let declared = definition.fields.map(\.name)
        for (name, text) in given.sorted(by: { $0.key < $1.key }) {
            if definition.decoder == nil, !declared.isEmpty, !declared.contains(name) {
                throw InputError("source '\(definition.name)' has no field '\(name)'\(Suggestion.didYouMean(name, among: declared)) (its fields: \(declared.joined(separator: ", ")))")
            }
            let type = definition.fields.first { $0.name == name }?.type
            switch type {
            case .integer?:
                guard let number = Int(text) else { throw InputError("field '\(name)' must be an integer; found '\(text)'") }
                fields[name] = .int(number)
            case .number?:
                guard let number = Double(text) else { throw InputError("field '\(name)' must be a number; found '\(text)'") }
                fields[name] = .double(number)
            case .boolean?:
                guard let flag = Bool(yaml: text) else { throw InputError("field '\(name)' must be true or false; found '\(text)'") }
                fields[name] = .bool(flag)
            default:
                fields[name] = .string(text)
            }
        }
        return fields
    }

    /// Reads and checks an image.
    static func blob(_ input: ImageInput) throws -> Blob {
        let data: Data
        let name: String
        switch input {
        case .data(let bytes):
            data = bytes
            name = "the image"
        case .file(let path):
            name = path
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
                  attributes[.type] as? FileAttributeType != .typeDirectory
            else {
                throw InputError("cannot read the image \(path): no such file")
            }
            let size = FileManager.default.fileSize(atPath: path) ?? 0
            if size > ImageFormat.maximumSize { throw tooLarge(name, size) }
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw InputError("cannot read the image \(path): permission denied")
            }
            data = contents
        }
        if data.count > ImageFormat.maximumSize { throw tooLarge(name, data.count) }
        guard let format = ImageFormat.detect(data) else {
            throw InputError("\(name) is not an image agg can store (JPEG, PNG, GIF or WebP, judged by its content)")
        }
        return Blob(data: data, format: format.rawValue)
    }

    private static func tooLarge(_ name: String, _ size: Int) -> InputError {
        let megabytes = Double(size) / 1_048_576
        return InputError("\(name) is \(DecimalText.tenths(megabytes)) MiB; images are limited to \(ImageFormat.maximumSize / 1_048_576) MiB")
    }

    /// `a`, `a and b`, `a, b and c`.
    static func list(_ items: [String]) -> String {
        switch items.count {
        case 0: return ""
        case 1: return items[0]
        default: return items.dropLast().joined(separator: ", ") + " and " + items.last!
        }
    }
}
