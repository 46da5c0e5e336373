import AggCore

/// Decodes Taipei Zoo records from data.taipei (animals, and exhibit areas of the same
/// envelope) across the API's generations.
///
/// Keys are normalised before anything else: a leading byte order mark is dropped
/// (`\u{FEFF}A_Name_Ch`), case is folded (`A_Name_Ch` and `a_name_ch` are one key) and the
/// one-letter table prefix (`a_`, `e_`) is removed. So `A_Name_Ch` becomes `name`,
/// `a_pic01_url` becomes `image`, `_id` becomes `id`, and every other field keeps its
/// normalised name (`a_location` → `location`). Strings are trimmed and empty ones dropped,
/// so an empty picture URL means no image while the record stays. Coordinates come from
/// `a_longitude`/`a_latitude` or from `a_geo` (`MULTIPOINT ((lon lat))`) as numbers.
public struct TaipeiZooRecordDecoder: RecordDecoder {
    /// Creates the decoder.
    public init() {}

    /// `taipei-zoo`.
    public var name: String { "taipei-zoo" }

    static let renames: [String: String] = [
        "name_ch": "name", "pic01_url": "image", "pic_url": "image", "_id": "id", "_importdate": "imported",
    ]

    public func decode(_ raw: JSONValue, source: SourceDefinition) -> DecodeOutcome {
        guard let object = raw.objectValue else {
            return .skipped(reason: "a zoo record must be an object, found \(raw.kindDescription)")
        }
        var fields = JSONObject()
        fields.reserveCapacity(object.count)
        var warnings: [String] = []
        let knownKeys = Self.knownKeys
        for (rawKey, value) in object {
            let field = knownKeys[rawKey] ?? Field(normalising: rawKey, isUnique: false)
            func set(_ key: String, _ value: JSONValue) {
                if field.appendsWithoutLookup { fields.append(key, value) } else { fields[key] = value }
            }
            switch (field.role, value) {
            case (.id, _):
                if let id = value.textValue { set("id", .string(id.trimmingSpaces)) }
            case (.imported, .object(let date)):
                if let text = date["date"]?.stringValue { set("imported", .string(text)) }
            case (.geo, .string(let text)):
                if let (longitude, latitude) = Self.point(fromWKT: text) {
                    fields["longitude"] = .double(longitude)
                    fields["latitude"] = .double(latitude)
                } else if !text.trimmingSpaces.isEmpty {
                    warnings.append("could not read coordinates from '\(text)'")
                }
            case (.coordinate, _):
                if let number = value.numberValue { set(field.key, .double(number)) }
            case (_, .string(let text)):
                let trimmed = text.trimmingSpaces
                if !trimmed.isEmpty { set(field.key, .string(trimmed)) }
            case (_, .null):
                continue
            default:
                set(field.key, value)
            }
        }
        if fields["id"] == nil { return .skipped(reason: "a zoo record has no _id") }
        return .record(fields, warnings: warnings)
    }

    /// What a raw key becomes, worked out once per key.
    struct Field {
        /// The kinds of field the decoder treats specially.
        enum Role { case id, imported, geo, coordinate, plain }

        /// The canonical key.
        let key: String
        let role: Role
        /// True when no other key has the same canonical key and the field is not one that
        /// `geo` also sets, so it can be appended without looking for an earlier member.
        let appendsWithoutLookup: Bool

        init(normalising rawKey: String, isUnique: Bool) {
            key = TaipeiZooRecordDecoder.normalise(rawKey)
            switch key {
            case "id": role = .id
            case "imported": role = .imported
            case "geo": role = .geo
            case "longitude", "latitude": role = .coordinate
            default: role = .plain
            }
            appendsWithoutLookup = isUnique && role != .coordinate
        }
    }

    /// The keys of the current API generation, worked out once: most records need no
    /// normalising work at all.
    static let knownKeys: KnownKeyTable<Field> = {
        let keys = [
        "_id", "_importdate", "a_adopt", "a_alsoknown", "a_behavior", "a_cid", "a_class", "a_code",
        "a_conservation", "a_crisis", "a_diet", "a_distribution", "a_family", "a_feature", "a_geo",
        "a_habitat", "a_interpretation", "a_keywords", "a_latitude", "a_location", "a_longitude",
        "a_name_ch", "a_name_en", "a_name_latin", "a_order", "a_pdf01_alt", "a_pdf01_url", "a_pdf02_alt",
        "a_pdf02_url", "a_phylum", "a_pic01_alt", "a_pic01_url", "a_pic02_alt", "a_pic02_url", "a_pic03_alt",
        "a_pic03_url", "a_pic04_alt", "a_pic04_url", "a_poigroup", "a_summary", "a_theme_name",
        "a_theme_url", "a_update", "a_vedio_url", "a_voice01_alt", "a_voice01_url", "a_voice02_alt",
        "a_voice02_url", "a_voice03_alt", "a_voice03_url", "e_category", "e_geo", "e_info", "e_memo",
        "e_name", "e_no", "e_pic_url", "e_url"
        ]
        let canonical = keys.map(normalise)
        var uses: [String: Int] = [:]
        for key in canonical { uses[key, default: 0] += 1 }
        return KnownKeyTable(zip(keys, canonical).map { ($0, Field(normalising: $0, isUnique: uses[$1] == 1)) })
    }()

    /// `\u{FEFF}A_Name_Ch` → `name`; `a_location` → `location`; `_id` → `id`.
    static func normalise(_ rawKey: String) -> String {
        var key = rawKey.unicodeScalars.filter { $0 != "\u{FEFF}" }.map(String.init).joined().lowercased().trimmingSpaces
        if let rename = renames[key] { return rename }
        let scalars = Array(key.unicodeScalars)
        if scalars.count > 2, scalars[1] == "_", ("a"..."z").contains(scalars[0]) {
            key = String(key.dropFirst(2))
        }
        return renames[key] ?? key
    }

    /// The first point of a WKT `POINT (lon lat)` or `MULTIPOINT ((lon lat), …)`.
    static func point(fromWKT text: String) -> (Double, Double)? {
        let numbers = text.split(whereSeparator: { !($0.isNumber || $0 == "." || $0 == "-") }).compactMap { Double($0) }
        guard numbers.count >= 2 else { return nil }
        return (numbers[0], numbers[1])
    }
}
