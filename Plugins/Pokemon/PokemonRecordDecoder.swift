import AggCore

/// Decodes Pokémon from the PokemonGO-style pokédex file (`{"pokemon": […]}`) and from
/// PokeAPI list pages (`{"results": [{"name", "url"}]}`).
///
/// Pokédex entries give `id`, `num`, `name`, `image` (from `img`), `types` (from `type`, a
/// list or a `"Grass / Poison"` string), `weaknesses`, `next_evolution` and `prev_evolution`
/// (names), and the remaining scalar details (`height`, `weight`, `candy`, `egg`, …). PokeAPI
/// entries give `name`, `url` and the `id` taken from the URL (`/api/v2/pokemon/25/` → 25).
public struct PokemonRecordDecoder: RecordDecoder {
    /// Creates the decoder.
    public init() {}

    /// `pokemon`.
    public var name: String { "pokemon" }

    public func records(in document: JSONValue, source: SourceDefinition) throws -> [JSONValue] {
        if let list = document["pokemon"]?.arrayValue { return list }
        if let list = document["results"]?.arrayValue { return list }
        if let list = document.arrayValue { return list }
        return try Self.array(at: source.records, in: document)
    }

    public func decode(_ raw: JSONValue, source: SourceDefinition) -> DecodeOutcome {
        guard let entry = raw.objectValue else {
            return .skipped(reason: "a Pokémon must be an object, found \(raw.kindDescription)")
        }
        var fields = JSONObject()
        if let url = entry["url"]?.stringValue, entry["img"] == nil {
            guard let id = Self.id(fromURL: url) else { return .skipped(reason: "cannot read an id from '\(url)'") }
            fields["id"] = .int(id)
            fields["name"] = entry["name"].flatMap(\.textValue).map(JSONValue.string)
            fields["url"] = .string(url)
            return .record(fields, warnings: [])
        }
        guard let id = entry["id"]?.intValue else { return .skipped(reason: "a Pokémon has no numeric id") }
        var warnings: [String] = []
        fields["id"] = .int(id)
        for (key, value) in entry {
            switch key {
            case "id": continue
            case "img": if let url = value.stringValue, !url.isEmpty { fields["image"] = .string(url) }
            case "type": fields["types"] = .array(Self.names(value).map(JSONValue.string))
            case "weaknesses": fields["weaknesses"] = .array(Self.names(value).map(JSONValue.string))
            case "next_evolution", "prev_evolution":
                guard let list = value.arrayValue else {
                    if !value.isNull { warnings.append("\(key) is \(value.kindDescription), not a list") }
                    continue
                }
                fields[key] = .array(list.compactMap { $0["name"]?.textValue }.map(JSONValue.string))
            default:
                if !value.isNull { fields[key] = value }
            }
        }
        if fields["name"] == nil { warnings.append("Pokémon \(id) has no name") }
        return .record(fields, warnings: warnings)
    }

    /// `"Grass / Poison"` or `["Grass", "Poison"]` → `["Grass", "Poison"]`.
    static func names(_ value: JSONValue) -> [String] {
        if let list = value.arrayValue { return list.compactMap(\.textValue) }
        guard let text = value.textValue else { return [] }
        return text.split(separator: "/").map { $0.trimmingSpaces }.filter { !$0.isEmpty }
    }

    /// The last number in a URL's path: `https://pokeapi.co/api/v2/pokemon/25/` → 25.
    static func id(fromURL url: String) -> Int? {
        url.split(separator: "/").last(where: { Int($0) != nil }).flatMap { Int($0) }
    }
}
