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
        var warnings: [String] = []
        var key = ""
        var keyIsUnique = true
        func set(_ key: String, _ value: JSONValue) {
            if keyIsUnique, key != "longitude", key != "latitude" { fields.append(key, value) } else { fields[key] = value }
        }
        for (rawKey, value) in object {
            if let known = Self.knownKeys[rawKey] {
                (key, keyIsUnique) = known
            } else {
                (key, keyIsUnique) = (Self.normalise(rawKey), false)
            }
            switch (key, value) {
            case ("id", _):
                if let id = value.textValue { set("id", .string(id.trimmingSpaces)) }
            case ("imported", .object(let date)):
                if let text = date["date"]?.stringValue { set("imported", .string(text)) }
            case ("geo", .string(let text)):
                if let (longitude, latitude) = Self.point(fromWKT: text) {
                    set("longitude", .double(longitude))
                    set("latitude", .double(latitude))
                } else if !text.trimmingSpaces.isEmpty {
                    warnings.append("could not read coordinates from '\(text)'")
                }
            case ("longitude", _), ("latitude", _):
                if let number = value.numberValue { set(key, .double(number)) }
            case (_, .string(let text)):
                let trimmed = text.trimmingSpaces
                if !trimmed.isEmpty { set(key, .string(trimmed)) }
            case (_, .null):
                continue
            default:
                set(key, value)
            }
        }
        if fields["id"] == nil { return .skipped(reason: "a zoo record has no _id") }
        return .record(fields, warnings: warnings)
    }

    /// The keys of the current API generation, normalised once: most records need no
    /// normalising work at all.
    /// Each maps to its canonical key and whether no other known key has the same one (so
    /// it can be appended without looking for an earlier member).
    static let knownKeys: [String: (key: String, isUnique: Bool)] = {
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
        return Dictionary(uniqueKeysWithValues: zip(keys, canonical).map { ($0, ($1, uses[$1] == 1)) })
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
