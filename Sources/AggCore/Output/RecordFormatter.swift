/// Writes records for people (tables) and for programs (JSON, NDJSON, CSV).
///
/// Every format carries each record's key, origin and canonical fields. A field `X_display`
/// (such as the metro's `updated_display`) is what tables show for `X`; machine formats keep
/// `X` itself (ISO 8601 for times).
public struct RecordFormatter: Sendable {
    /// Output formats.
    public enum Format: String, Sendable, CaseIterable {
        case table, json, ndjson, csv
    }

    /// The source the records belong to.
    public var definition: SourceDefinition
    /// Fields to show; nil picks the definition's `columns`, or its search field and the
    /// first fields of the records.
    public var fields: [String]?
    /// Whether machine formats include the raw document.
    public var includeRaw: Bool
    /// Where cached images are, so machine formats can give `image_path`.
    public let imageCache: ImageCache?
    /// `imageCache` when it holds anything: an empty cache is not asked about every record.
    private let imageLookup: ImageCache?

    /// Creates a formatter.
    public init(definition: SourceDefinition, fields: [String]? = nil, includeRaw: Bool = false, imageCache: ImageCache? = nil) {
        self.definition = definition
        self.fields = fields
        self.includeRaw = includeRaw
        self.imageCache = imageCache
        self.imageLookup = imageCache.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The picked fields that get a column of their own: all but `key` and `origin`, which
    /// every format shows anyway, unless a record has a field by that name.
    func pickedColumns(for records: [Record]) -> [String]? {
        fields?.filter { name in !["key", "origin"].contains(name) || records.contains { $0.fields[name] != nil } }
    }

    /// The fields a table shows for `records`.
    public func tableColumns(for records: [Record]) -> [String] {
        if let picked = pickedColumns(for: records) { return picked }
        if !definition.columns.isEmpty { return definition.columns }
        var columns: [String] = definition.search.map { [$0] } ?? []
        for record in records.prefix(50) {
            for key in record.fields.keys where !columns.contains(key) && !key.hasSuffix("_display") && columns.count < 5 {
                columns.append(key)
            }
        }
        return columns
    }

    /// A table of `records` at most `width` columns wide.
    public func table(_ records: [Record], width: Int?) -> String {
        let columns = tableColumns(for: records)
        let rows = records.map { record in
            [record.key, record.origin == .local ? "local" : "remote"] + columns.map { column in
                let value = record.fields[column + "_display"] ?? RecordQuery.value(of: record, column)
                return value.map(Self.text) ?? (column == (definition.image ?? "image") ? Self.imageText(record.image) : "")
            }
        }
        let headers = ["KEY", "ORIGIN"] + columns.map { $0.uppercased() }
        return TextTable(headers: headers, rows: rows).render(maximumWidth: width)
    }

    /// One record as a JSON object: source, key, origin, sequence, image, fields (and raw).
    public func json(_ record: Record) -> JSONValue {
        var object = header(record)
        var fields = record.fields
        if let selected = self.fields {
            fields = JSONObject(selected.compactMap { name in record.fields[name].map { (name, $0) } })
        }
        object["fields"] = .object(fields)
        if includeRaw, let raw = record.raw { object["raw"] = raw }
        return .object(object)
    }

    /// The members of `json(record)` before the fields: source, key, origin, sequence, image.
    private func header(_ record: Record) -> JSONObject {
        var object = JSONObject()
        object["source"] = .string(record.source)
        object["key"] = .string(record.key)
        object["origin"] = .string(record.origin.rawValue)
        if let sequence = record.sequence { object["sequence"] = .int(sequence) }
        if let image = record.image {
            object["image"] = .string(Self.imageText(image))
            if let path = imageLookup?.path(for: image) { object["image_path"] = .string(path) }
        }
        return object
    }

    /// One record as compact JSON on one line, as UTF-8 (without the line break): an NDJSON
    /// line, and an element of the `json` format's array. Bytes, not a `String`, because an
    /// export writes them out as they are: making a `String` of each line (checking its UTF-8
    /// again) was a fifth of the time of exporting a source.
    public func jsonLine(_ record: Record) -> [UInt8] {
        guard fields == nil, let fieldsText = record.fieldsText else {
            return JSONWriter.bytes(json(record), expectedSize: 4096)
        }
        // The stored text of all the fields is what encoding them would give: copy it in
        // after the header (never empty, so it ends with a value and a closing brace).
        var line = JSONWriter.bytes(.object(header(record)), expectedSize: fieldsText.count + 512)
        line.removeLast()
        line += #","fields":"#.utf8
        line += fieldsText
        if includeRaw, let raw = record.raw {
            line += #","raw":"#.utf8
            line += JSONWriter.bytes(raw)
        }
        line.append(UInt8(ascii: "}"))
        return line
    }

    /// RFC 4180 CSV with a header row: key, origin, then the fields.
    public func csv(_ records: [Record]) -> String {
        var columns = pickedColumns(for: records) ?? []
        if fields == nil {
            for record in records {
                for key in record.fields.keys where !columns.contains(key) { columns.append(key) }
            }
        }
        var lines = [(["key", "origin"] + columns).map(Self.csvCell).joined(separator: ",")]
        for record in records {
            let cells = [record.key, record.origin.rawValue] + columns.map { column in
                RecordQuery.value(of: record, column).map(Self.text) ?? ""
            }
            lines.append(cells.map(Self.csvCell).joined(separator: ","))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// A cell quoted when it holds a comma, quote or line break.
    static func csvCell(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingAll("\"", with: "\"\"") + "\""
    }

    /// A value as text: scalars as they are, lists joined with ", ", objects as JSON.
    public static func text(_ value: JSONValue) -> String {
        switch value {
        case .null: return ""
        case .array(let items): return items.map(text).joined(separator: ", ")
        case .object: return JSONWriter.string(value)
        default: return value.textValue ?? ""
        }
    }

    /// `https://…` for remote images, `blob:<sha256>` for stored ones.
    public static func imageText(_ image: ImageReference?) -> String {
        switch image {
        case .url(let url)?: url
        case .blob(let digest)?: "blob:\(digest)"
        case nil: ""
        }
    }
}
