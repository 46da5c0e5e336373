@testable import AggCore
import Testing

@Suite struct TemplateTests {
    func render(_ text: String, _ environment: [String: String], _ parameters: [String: String] = [:]) throws -> String {
        try Template.parse(text).get().render(environment: environment, parameters: parameters) { segment in
            throw TemplateSyntaxError("missing \(segment)")
        }
    }

    @Test func environmentVariablesAndDefaults() throws {
        #expect(try render("${HOST:-https://data.taipei}/api", [:]) == "https://data.taipei/api")
        #expect(try render("${HOST:-https://data.taipei}/api", ["HOST": "http://127.0.0.1:8080"]) == "http://127.0.0.1:8080/api")
        #expect(try render("${HOST:-fallback}", ["HOST": ""]) == "fallback")
        #expect(try render("${KEY}", ["KEY": "abc"]) == "abc")
        #expect(try render("cost $$5 and $x", [:]) == "cost $5 and $x")
        #expect(try render("lat=${params.lat}", [:], ["lat": "25.03"]) == "lat=25.03")
    }

    @Test func missingVariableIsReported() {
        #expect(throws: TemplateSyntaxError.self) { try render("${KEY}", [:]) }
    }

    @Test func malformedReferences() {
        #expect(throws: TemplateSyntaxError.self) { try Template.parse("${open").get() }
        #expect(throws: TemplateSyntaxError.self) { try Template.parse("${9x}").get() }
        #expect(throws: TemplateSyntaxError.self) { try Template.parse("${params.}").get() }
    }

    static let flickr = """
        flickr:
          parameters:
            lat: { type: number, required: true, description: latitude }
            radius: { type: number, default: "5" }
          secrets:
            FLICKR_API_KEY: get one at https://www.flickr.com/services/apps/create/apply/
          request:
            url: ${AGG_FLICKR_API:-https://api.flickr.com}/services/rest/
            query: { api_key: "${FLICKR_API_KEY}", lat: "${params.lat}", radius: "${params.radius}", text: "a b&c" }
        other:
          request: { url: "${OTHER_HOST}/x" }

        """

    func source(_ name: String) throws -> SourceDefinition {
        try #require(DefinitionLoader().load(text: Self.flickr, file: "f.yaml").sources.first { $0.name == name })
    }

    @Test func resolvingARequestFillsEverythingIn() throws {
        let request = try source("flickr").resolveRequest(environment: ["FLICKR_API_KEY": "s3cret"], parameters: ["lat": "25.03"])
        #expect(request.url == "https://api.flickr.com/services/rest/?api_key=s3cret&lat=25.03&radius=5&text=a%20b%26c")
        #expect(request.parameters == ["lat": "25.03", "radius": "5"])
        #expect(request.redact("GET \(request.url) failed") == "GET https://api.flickr.com/services/rest/?api_key=<redacted>&lat=25.03&radius=5&text=a%20b%26c failed")
    }

    @Test func aShortSecretIsRedactedOnlyWhereItStandsAlone() throws {
        let short = try source("flickr").resolveRequest(environment: ["FLICKR_API_KEY": "x"], parameters: ["lat": "25.03"])
        #expect(short.redact("http://h/?api_key=x&extras=url_m: invalid key x") == "http://h/?api_key=<redacted>&extras=url_m: invalid key <redacted>")
        let long = try source("flickr").resolveRequest(environment: ["FLICKR_API_KEY": "0123abcd"], parameters: ["lat": "25.03"])
        #expect(long.redact("invalid key x0123abcdx (api_key=0123abcd)") == "invalid key x<redacted>x (api_key=<redacted>)")
    }

    @Test func aMissingSecretNamesTheVariableAndWhereToGetIt() throws {
        let error = #expect(throws: ConfigurationError.self) { try source("flickr").resolveRequest(environment: [:], parameters: ["lat": "1"]) }
        #expect(error?.kind == .missingSecret("FLICKR_API_KEY"))
        #expect(error?.description == "source 'flickr' needs the secret FLICKR_API_KEY in the environment, and it is not set; get one at https://www.flickr.com/services/apps/create/apply/")
    }

    /// A wrong parameter is reported before a missing secret: it is what the user just typed,
    /// and fixing the secret first would only lead to the second error.
    @Test func aWrongParameterIsReportedBeforeAMissingSecret() throws {
        let error = #expect(throws: ConfigurationError.self) { try source("flickr").resolveRequest(environment: [:], parameters: ["lat": "abc"]) }
        #expect(error?.kind == .invalidParameter("lat"))
    }

    @Test func anUnsetVariableMattersOnlyForTheSourceThatUsesIt() throws {
        #expect(throws: Never.self) { try source("flickr").resolveRequest(environment: ["FLICKR_API_KEY": "k"], parameters: ["lat": "1"]) }
        let error = #expect(throws: ConfigurationError.self) { try source("other").resolveRequest(environment: [:]) }
        #expect(error?.description == "source 'other' needs the environment variable OTHER_HOST (used in its request url), and it is not set")
    }

    @Test func parametersAreChecked() throws {
        let flickr = try source("flickr")
        #expect(throws: ConfigurationError.self) { try flickr.resolveParameters([:]) }
        #expect((try? flickr.resolveParameters(["lat": "x"])) == nil)
        let unknown = #expect(throws: ConfigurationError.self) { try flickr.resolveParameters(["lat": "1", "radiuss": "2"]) }
        #expect(unknown?.description == "source 'flickr' has no parameter 'radiuss'; did you mean 'radius'? (it takes lat, radius)")
        let missing = #expect(throws: ConfigurationError.self) { try flickr.resolveParameters([:]) }
        #expect(missing?.description == "source 'flickr' needs --param lat=… (number: latitude)")
    }
}
