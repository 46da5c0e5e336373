@testable import AggCore
import Testing

@Suite struct DefinitionLoaderTests {
    let loader = DefinitionLoader(knownDecoders: ["taipei-zoo", "flickr"])

    func errors(_ text: String) -> [String] {
        loader.load(text: text, file: "s.yaml").diagnostics.filter { $0.severity == .error }.map(\.description)
    }

    static let zoo = """
        zoo:
          title: Taipei Zoo animals
          decoder: taipei-zoo
          request:
            url: ${AGG_DATA_TAIPEI:-https://data.taipei}/api/v1/dataset/x
            query: { scope: resourceAquire }
          records: result.results
          paginate: { style: offset, limit: 1000, total: result.count }
          key: id
          search: name
          insert: { required: [name, image] }
          ttl: 1d

        """

    @Test func loadsAFullDefinition() throws {
        let result = loader.load(text: Self.zoo, file: "s.yaml")
        #expect(result.diagnostics.isEmpty)
        let zoo = try #require(result.sources.first)
        #expect(zoo.name == "zoo")
        #expect(zoo.title == "Taipei Zoo animals")
        #expect(zoo.decoder == "taipei-zoo")
        #expect(zoo.records.description == "result.results")
        #expect(zoo.key == ["id"])
        #expect(zoo.insert.required == ["name", "image"])
        #expect(zoo.ttl?.seconds == 86_400)
        #expect(zoo.request?.query.first?.name == "scope")
        guard case .offset(let offset) = zoo.pagination else { Issue.record("expected offset pagination"); return }
        #expect(offset.limit == 1000)
        #expect(offset.total?.description == "result.count")
        #expect(zoo.location == SourceLocation(file: "s.yaml", line: 1, column: 1))
    }

    @Test func unknownKeyGetsDidYouMeanWithLocationAndCaret() {
        let text = Self.zoo.replacingAll("  paginate:", with: "  pagniate:")
        #expect(errors(text) == ["""
            s.yaml:8:3: error: unknown key 'pagniate' in source 'zoo'; did you mean 'paginate'?
              pagniate: { style: offset, limit: 1000, total: result.count }
              ^
            """])
    }

    @Test func unknownNestedKeyNamesItsContext() {
        let text = Self.zoo.replacingAll("limit: 1000", with: "limt: 1000")
        #expect(errors(text).first?.hasPrefix("s.yaml:8:30: error: unknown key 'limt' in 'paginate' of source 'zoo'; did you mean 'limit'?") == true)
    }

    @Test func unknownKeyFarFromAnyKnownKeyHasNoSuggestion() {
        #expect(errors("a:\n  kind: local\n  colour: red\n") == [
            "s.yaml:3:3: error: unknown key 'colour' in source 'a'\n  colour: red\n  ^",
        ])
    }

    @Test func duplicateKeyNamesTheFirstOne() {
        #expect(errors("a:\n  kind: local\n  title: A\n  title: B\n") == [
            "s.yaml:4:3: error: duplicate key 'title' in source 'a' (first defined at line 3)\n  title: B\n  ^",
        ])
    }

    @Test func wrongTypeNamesTheExpectedType() {
        let text = Self.zoo.replacingAll("limit: 1000", with: "limit: many")
        #expect(errors(text).first?.hasPrefix("s.yaml:8:37: error: 'limit' must be an integer, found a string") == true)
        let quoted = Self.zoo.replacingAll("limit: 1000", with: "limit: \"1000\"")
        #expect(errors(quoted).first?.contains("'limit' must be an integer, found a string") == true)
        #expect(errors("a:\n  kind: local\n  title: [x]\n").first?.hasPrefix("s.yaml:3:10: error: 'title' must be a string, found a list") == true)
    }

    @Test func aRemoteSourceNeedsARequest() {
        #expect(errors("a:\n  title: A\n").first?.hasPrefix("s.yaml:1:1: error: source 'a' has no 'request'; a remote source needs one") == true)
    }

    @Test func aLocalSourceTakesNoRequest() {
        #expect(errors("a:\n  kind: local\n  request: { url: x }\n").first?.hasPrefix("s.yaml:3:3: error: 'request' does not apply to a local source") == true)
    }

    @Test func choicesSuggestTheClosestValue() {
        #expect(errors("a:\n  kind: locale\n").first?.hasPrefix("s.yaml:2:9: error: 'kind' must be one of remote, local; found 'locale'; did you mean 'local'?") == true)
        let text = Self.zoo.replacingAll("style: offset", with: "style: ofset")
        #expect(errors(text).first?.contains("'style' must be one of none, offset, page, next; found 'ofset'; did you mean 'offset'?") == true)
    }

    @Test func unknownDecoderListsTheKnownOnes() {
        let text = Self.zoo.replacingAll("decoder: taipei-zoo", with: "decoder: taipei-zo")
        #expect(errors(text).first?.hasPrefix("s.yaml:3:12: error: unknown decoder 'taipei-zo'; did you mean 'taipei-zoo'? (known decoders: flickr, taipei-zoo;") == true)
    }

    @Test func paginationKeysMustFitTheStyle() {
        let text = Self.zoo.replacingAll("total: result.count", with: "pages: result.count")
        #expect(errors(text).first?.contains("'pages' does not apply to offset pagination") == true)
    }

    @Test func templatesAreCheckedWhenLoaded() {
        let text = Self.zoo.replacingAll("${AGG_DATA_TAIPEI:-https://data.taipei}", with: "${AGG_DATA_TAIPEI")
        #expect(errors(text).first?.contains("'url': '${' without a closing '}'") == true)
        let parameter = Self.zoo.replacingAll("scope: resourceAquire", with: "scope: \"${params.scop}\"")
        #expect(errors(parameter).first?.contains("'${params.scop}' refers to a parameter that 'parameters' does not declare") == true)
    }

    @Test func fieldNamesMustBeDeclaredForTheGenericMapper() {
        let text = "a:\n  kind: local\n  fields: [name, image]\n  search: nmae\n"
        #expect(errors(text).first?.hasPrefix("s.yaml:4:11: error: 'search' names the field 'nmae', which 'fields' does not declare; did you mean 'name'?") == true)
    }

    @Test func badTimeToLive() {
        #expect(errors("a:\n  request: { url: u }\n  ttl: soon\n").first?.contains("'ttl' must be a duration like 30s") == true)
    }

    @Test func aBrokenSourceDoesNotHideTheOthersInItsFile() {
        let result = loader.load(text: "a:\n  kind: local\nb:\n  kind: nope\nc:\n  kind: local\n", file: "s.yaml")
        #expect(result.sources.map(\.name) == ["a", "c"])
        #expect(result.hasErrors)
    }

    @Test func parametersHaveTypesDefaultsAndRequiredFlags() throws {
        let text = """
            f:
              parameters:
                lat: { type: number, required: true }
                radius: { type: number, default: "5" }
              request: { url: "https://x/?lat=${params.lat}" }

            """
        let result = loader.load(text: text, file: "s.yaml")
        #expect(result.diagnostics.isEmpty)
        let source = try #require(result.sources.first)
        #expect(source.parameters.map(\.name) == ["lat", "radius"])
        #expect(source.parameters[0].required)
        #expect(source.parameters[1].defaultValue == "5")
        #expect(errors("f:\n  parameters: { n: { type: integer, default: x } }\n  request: { url: u }\n").first?.contains("the default of parameter 'n' must be of type integer, found 'x'") == true)
    }
}
