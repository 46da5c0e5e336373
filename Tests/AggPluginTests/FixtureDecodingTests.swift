import AggBuiltins
import AggCore
import AggTestSupport
import Foundation
import Testing

/// Every recorded payload decodes without a crash and with the number of records it holds.
@Suite struct FixtureDecodingTests {
    static let registry = Builtins.registry(environment: ["HOME": "/nonexistent"])

    static func pipeline(_ source: String) throws -> RecordPipeline {
        let definition = try registry.source(named: source).definition
        return RecordPipeline(definition: definition, decoder: try Builtins.decoders.decoder(for: definition))
    }

    static let expected: [(String, String, Int)] = [
        ("zoo", "taipei-zoo/v1-animals-rid6afa114d-full313-2026-03_LEO0331-taipei-zoo-guide.json", 313),
        ("zoo", "taipei-zoo/v1-animals-lowercase-limit10-2022-12-23_iamoscarliang-zoo-browser.json", 10),
        ("zoo", "taipei-zoo/v1-exhibit-areas-limit20-count16-2022_iamoscarliang-zoo-browser.json", 16),
        ("metro", "taipei-metro/download-resource-envelope-24recs-2021-02-24_eggtower-MRTStationList.json", 24),
        ("metro", "taipei-metro/records-array-22recs-frac-1-digit-2020-09-26-converted-from-js-literal_myong3-First-Angular-Project.json", 22),
        ("metro", "taipei-metro/records-array-23recs-2021-06-29_dorahero-Anglar_study.json", 23),
        ("metro", "taipei-metro/records-array-24recs-2015-07-20-converted-from-js-literal_rita1005-angular-stationlist.json", 24),
        ("metro", "taipei-metro/records-array-25recs-frac-0-1-2-3-digits-2020-06-08_balajasa-aloha.json", 25),
        ("metro", "taipei-metro/records-array-41recs-2019-07-01-converted-from-js-literal_roseee123-AngularLearning.json", 41),
        ("flickr", "flickr/search-ok-100photos-2011-old-spacing_jasarien-PhotoViewController.json", 100),
        ("flickr", "flickr/search-ok-100photos-2020_abdulbasit18-FlickrSearch.json", 100),
        ("flickr", "flickr/search-ok-20photos-2018_hadanischal-FlickrSearchExample.json", 20),
        ("flickr", "flickr/search-ok-2photos-2019_lexorus-flickr-search-challenge.json", 2),
        ("flickr", "flickr/search-ok-3photos-trimmed-no-stat-2016_allco-FlickrSearch.json", 3),
        ("flickr", "flickr/search-ok-page4-10photos-url_m-cjk-2020_hassanjamilah-Virtual-Tourist-Swift.json", 10),
        ("pokemon", "pokemon/pokeapi-api-data-static-pokemon-index-count1351-relative-urls-2026_PokeAPI-api-data.json", 1351),
        ("pokemon", "pokemon/pokeapi-v2-pokemon-list-page1-limit20-count964-2020_skydoves-Pokedex.json", 20),
        ("pokemon", "pokemon/pokemongo-pokedex-151-latest-2017-01-28_Biuni-PokemonGO-Pokedex.json", 151),
        ("pokemon", "pokemon/pokemongo-pokedex-151-minimal-string-ids-2016-07-17_Biuni-PokemonGO-Pokedex.json", 151),
    ]

    @Test(arguments: expected.map { [$0.0, $0.1, String($0.2)] })
    func everyFixtureDecodesCompletely(case: [String]) throws {
        let page = try Self.pipeline(`case`[0]).page(from: Fixtures.data(`case`[1]))
        #expect(page.records.count == Int(`case`[2]))
        #expect(page.skipped == 0)
        #expect(Set(page.records.map(\.key)).count == page.records.count)
    }

    @Test func everyCopiedFixtureIsCovered() {
        let covered = Set(Self.expected.map(\.1))
        let all = ["taipei-zoo", "taipei-metro", "flickr", "pokemon"].flatMap(Fixtures.files(in:))
        #expect(Set(all).subtracting(covered) == ["flickr/fail-code112-method-not-found-2019_lexorus-flickr-search-challenge.json"])
    }

    @Test func zooFieldsAcrossGenerations() throws {
        let pipeline = try Self.pipeline("zoo")
        let new = try pipeline.page(from: Fixtures.data(Fixtures.fullZoo)).records
        let panda = try #require(new.first)
        #expect(panda.key == "1")
        #expect(panda.fields["name"] == "大貓熊")
        #expect(panda.fields["longitude"] == .double(121.5832))
        #expect(panda.fields["latitude"] == .double(24.9971))
        #expect(panda.imageURL == "http://www.zoo.gov.tw/iTAP/03_Animals/PandaHouse/Panda_Pic01.jpg")
        let noPicture = try #require(new.first { $0.key == "52" })
        #expect(noPicture.imageURL == nil)
        #expect(noPicture.fields["name"] != nil)
        let old = try pipeline.page(from: Fixtures.data("taipei-zoo/v1-animals-lowercase-limit10-2022-12-23_iamoscarliang-zoo-browser.json")).records
        #expect(old.first?.fields["longitude"] == .double(121.5831587))
        #expect(old.first?.fields["latitude"] == .double(24.9971109))
    }

    @Test func zooKeysInAnyCaseOrWithAByteOrderMarkBecomeTheSameFields() throws {
        let body = #"{"result":{"count":2,"results":[{"_id":"7","\uFEFFA_Name_Ch":"石虎","A_Pic01_URL":"","A_Geo":"MULTIPOINT ((121.5 24.9))"},{"_id":8,"a_name_ch":"  山羌 ","a_pic01_url":"https://x/y.jpg"}]}}"#
        let records = try Self.pipeline("zoo").page(from: Data(body.utf8)).records
        #expect(records.map(\.key) == ["7", "8"])
        #expect(records[0].fields["name"] == "石虎")
        #expect(records[0].imageURL == nil)
        #expect(records[0].fields["longitude"] == .double(121.5))
        #expect(records[1].fields["name"] == "山羌")
        #expect(records[1].imageURL == "https://x/y.jpg")
    }

    @Test func metroTimesWithZeroToThreeFractionDigits() throws {
        let body = #"[{"Station":"A","Destination":"B","UpdateTime":"2020-06-08T16:13:08"},{"Station":"C","Destination":"D","UpdateTime":"2020-06-08T16:13:08.7"},{"Station":"E","Destination":"F","UpdateTime":"2020-06-08T16:13:36.89"},{"Station":"G","Destination":"H","UpdateTime":"2020-06-08T16:13:44.707"},{"Station":"士林站","StationEn":"Shilin","Destination":"大安站","DestinationEn":"DAAN","UpdateTime":"20261008131602"}]"#
        let records = try Self.pipeline("metro").page(from: Data(body.utf8)).records
        #expect(records.map { $0.fields["updated"] } == [
            "2020-06-08T16:13:08+08:00", "2020-06-08T16:13:08.700+08:00", "2020-06-08T16:13:36.890+08:00",
            "2020-06-08T16:13:44.707+08:00", "2026-10-08T13:16:02+08:00",
        ])
        #expect(records[3].fields["updated_display"] == "2020年06月08日16時13分")
        #expect(records[4].key == "士林站/大安站")
        #expect(records[4].fields["station_en"] == "Shilin")
    }

    @Test func metroAcceptsEveryEnvelope() throws {
        let record = #"{"Station":"A","Destination":"B","UpdateTime":"2020-06-08T16:13:08"}"#
        let pipeline = try Self.pipeline("metro")
        for body in ["[\(record)]", #"{"resource":[\#(record)]}"#, #"{"result":{"count":1,"results":[\#(record)]}}"#] {
            #expect(try pipeline.page(from: Data(body.utf8)).records.count == 1)
        }
    }

    @Test func flickrFailureCarriesCodeAndMessage() throws {
        let error = #expect(throws: SourceResponseError.self) {
            try Self.pipeline("flickr").page(from: Fixtures.data("flickr/fail-code112-method-not-found-2019_lexorus-flickr-search-challenge.json"))
        }
        #expect(error?.code == "112")
        #expect(error?.message == #"Flickr: Method "flickr.photos.searchr" not found"#)
    }

    @Test func flickrImages() throws {
        let pipeline = try Self.pipeline("flickr")
        let withURL = try pipeline.page(from: Fixtures.data("flickr/search-ok-page4-10photos-url_m-cjk-2020_hassanjamilah-Virtual-Tourist-Swift.json")).records
        #expect(withURL.allSatisfy { $0.imageURL?.hasPrefix("https://live.staticflickr.com/") == true })
        #expect(withURL.first?.fields["width"]?.intValue != nil)
        let farmZero = try pipeline.page(from: Fixtures.data("flickr/search-ok-100photos-2020_abdulbasit18-FlickrSearch.json")).records
        #expect(farmZero.filter { $0.imageURL == nil }.count == 69)
        let built = try #require(farmZero.first { $0.imageURL != nil }?.imageURL)
        #expect(built.hasPrefix("https://live.staticflickr.com/65535/"))
        let old = try pipeline.page(from: Fixtures.data("flickr/search-ok-100photos-2011-old-spacing_jasarien-PhotoViewController.json")).records
        #expect(old.filter { $0.fields["title"] == "" }.count == 19)
        #expect(old.first?.imageURL == "https://live.staticflickr.com/5292/5471108375_7c32f813dd_m.jpg")
    }

    @Test func pokemonShapes() throws {
        let pipeline = try Self.pipeline("pokemon")
        let pokedex = try pipeline.page(from: Fixtures.data("pokemon/pokemongo-pokedex-151-latest-2017-01-28_Biuni-PokemonGO-Pokedex.json")).records
        let bulbasaur = try #require(pokedex.first)
        #expect(bulbasaur.key == "1")
        #expect(bulbasaur.fields["types"] == ["Grass", "Poison"])
        #expect(bulbasaur.fields["next_evolution"] == ["Ivysaur", "Venusaur"])
        #expect(bulbasaur.imageURL == "http://www.serebii.net/pokemongo/pokemon/001.png")
        let minimal = try pipeline.page(from: Fixtures.data("pokemon/pokemongo-pokedex-151-minimal-string-ids-2016-07-17_Biuni-PokemonGO-Pokedex.json")).records
        #expect(minimal.first?.fields["types"] == ["Grass", "Poison"])
        let api = try pipeline.page(from: Fixtures.data("pokemon/pokeapi-api-data-static-pokemon-index-count1351-relative-urls-2026_PokeAPI-api-data.json")).records
        #expect(api.last?.key == "10325" || Int(api.last?.key ?? "") ?? 0 > 10000)
        #expect(api.first?.fields["name"] == "bulbasaur")
    }

    @Test func wrongTypesNeverCrashAndAreCounted() throws {
        let body = #"{"pokemon":[{"id":"x","name":5},{"id":3,"name":"Venusaur","type":7,"next_evolution":"nope"},42]}"#
        let page = try Self.pipeline("pokemon").page(from: Data(body.utf8))
        #expect(page.records.map(\.key) == ["3"])
        #expect(page.skipped == 2)
        #expect(page.warnings.contains { $0.contains("next_evolution") })
    }
}
