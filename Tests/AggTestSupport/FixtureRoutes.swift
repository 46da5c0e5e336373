import AggCore
import Foundation

/// Handlers that serve the recorded fixtures the way the real APIs page them.
public enum FixtureRoutes {
    /// A fixture parsed.
    public static func document(_ fixture: String) throws -> JSONValue {
        try JSONParser.parse(Fixtures.data(fixture))
    }

    /// The data.taipei envelope of `fixture`, sliced by the request's `offset` and `limit`,
    /// with `count` the full number of records.
    public static func dataTaipei(_ fixture: String) throws -> FixtureServer.Handler {
        let records = try document(fixture)["result"]?["results"]?.arrayValue ?? []
        return { request in
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            let limit = Int(request.query["limit"] ?? "1000") ?? 1000
            let slice = Array(records.dropFirst(offset).prefix(limit))
            return .json(["result": .object(["limit": .int(limit), "offset": .int(offset), "count": .int(records.count), "sort": "", "results": .array(slice)])])
        }
    }

    /// A Flickr search: the photos of `fixture` for every page, ids made unique per page,
    /// with `photos.page` set to the page asked for and `photos.pages` to `pages` (a string,
    /// as one generation of the API sent it).
    public static func flickr(_ fixture: String, pages: Int) throws -> FixtureServer.Handler {
        let photos = try document(fixture)["photos"]?.objectValue ?? JSONObject()
        return { request in
            var copy = photos
            let page = Int(request.query["page"] ?? "1") ?? 1
            copy["page"] = .int(page)
            copy["pages"] = .string(String(pages))
            copy["photo"] = .array((photos["photo"]?.arrayValue ?? []).map { photo in
                var object = photo.objectValue ?? JSONObject()
                object["id"] = .string("\(page)-\(photo["id"]?.textValue ?? "")")
                return .object(object)
            })
            return .json(["photos": .object(copy), "stat": "ok"])
        }
    }

    /// PokeAPI list pages over the static index fixture (1351 Pokémon): `limit` a page, each
    /// page's `next` a relative URL, the last page's `next` null.
    public static func pokeAPI(limit: Int) throws -> FixtureServer.Handler {
        let fixture = "pokemon/pokeapi-api-data-static-pokemon-index-count1351-relative-urls-2026_PokeAPI-api-data.json"
        let results = try document(fixture)["results"]?.arrayValue ?? []
        return { request in
            let offset = Int(request.query["offset"] ?? "0") ?? 0
            let slice = Array(results.dropFirst(offset).prefix(limit))
            let next: JSONValue = offset + limit < results.count ? .string("/api/v2/pokemon/?offset=\(offset + limit)&limit=\(limit)") : .null
            return .json(["count": .int(results.count), "next": next, "previous": .null, "results": .array(slice)])
        }
    }

    /// The bytes of a fixture file.
    public static func file(_ fixture: String) throws -> FixtureServer.Handler {
        let data = try Fixtures.data(fixture)
        return { _ in FixtureResponse(headers: ["Content-Type": "application/json"], body: data) }
    }
}
