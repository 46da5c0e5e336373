@testable import AggCore
import AggTestSupport
import Testing

@Suite struct RegistryTests {
    @Test func laterFilesOverrideEarlierOnesAndListingsSayWhere() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let builtin = try folder.write("builtin.yaml", "zoo:\n  kind: local\n  title: Built-in zoo\nfaces:\n  kind: local\n")
        let config = folder.path + "/config"
        try folder.write("config/agg/sources.d/10-zoo.yaml", "zoo:\n  kind: local\n  title: Folder zoo\n")
        let fromEnvironment = try folder.write("env.yaml", "zoo:\n  kind: local\n  title: Environment zoo\n")
        let fromCommandLine = try folder.write("cli.yaml", "\nzoo:\n  kind: local\n  title: Command-line zoo\n")
        let environment = ["XDG_CONFIG_HOME": config, "AGG_SOURCES": fromEnvironment, "HOME": folder.path]
        let files = DefinitionSearchPath.files(builtin: DefinitionFile(path: builtin, origin: .builtin), environment: environment, commandLine: [fromCommandLine])
        #expect(files.map(\.origin) == [.builtin, .userFolder, .environment, .commandLine])
        let registry = SourceRegistry(files: files, loader: DefinitionLoader())
        let zoo = try registry.source(named: "zoo")
        #expect(zoo.definition.title == "Command-line zoo")
        #expect(zoo.file.path == fromCommandLine)
        #expect(zoo.definition.location.line == 2)
        #expect(zoo.overrides.map(\.file) == [builtin, config + "/agg/sources.d/10-zoo.yaml", fromEnvironment])
        #expect(registry.sources.map(\.name) == ["faces", "zoo"])
    }

    @Test func aBrokenFileDoesNotHideOtherFiles() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let good = try folder.write("good.yaml", "faces:\n  kind: local\n")
        let broken = try folder.write("broken.yaml", "zoo: [unclosed\n")
        let registry = SourceRegistry(
            files: [DefinitionFile(path: good, origin: .builtin), DefinitionFile(path: broken, origin: .commandLine),
                    DefinitionFile(path: folder.path + "/missing.yaml", origin: .commandLine)],
            loader: DefinitionLoader())
        #expect(registry.sources.map(\.name) == ["faces"])
        #expect(registry.hasErrors)
        #expect(registry.diagnostics.count == 2)
        #expect(registry.diagnostics[0].description.hasPrefix("\(broken):2:1: error: YAML syntax"))
        #expect(registry.diagnostics[1].description == "error: cannot load definitions from \(folder.path)/missing.yaml: no such file")
    }

    /// Files loaded into an existing registry (the command line's, after the preloaded ones)
    /// override its definitions, and an embedded file is read from its text.
    @Test func filesLoadedLaterOverrideAndEmbeddedTextIsRead() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let embedded = DefinitionFile(path: "sources.yaml", origin: .builtin, contents: "zoo:\n  kind: local\n  title: Embedded\n")
        var registry = SourceRegistry(files: [embedded], loader: DefinitionLoader())
        #expect(try registry.source(named: "zoo").definition.title == "Embedded")
        let later = try folder.write("later.yaml", "zoo:\n  kind: local\n  title: Later\n")
        registry.load([DefinitionFile(path: later, origin: .commandLine)], loader: DefinitionLoader())
        let zoo = try registry.source(named: "zoo")
        #expect(zoo.definition.title == "Later")
        #expect(zoo.overrides.map(\.description) == ["sources.yaml:1:1"])
    }

    @Test func unknownSourceSuggestsTheClosestName() throws {
        var registry = SourceRegistry()
        registry.add(DefinitionLoader().load(text: "zoo:\n  kind: local\nmetro:\n  kind: local\n", file: "s.yaml"), from: DefinitionFile(path: "s.yaml", origin: .builtin))
        let error = #expect(throws: UnknownSourceError.self) { try registry.source(named: "zooo") }
        #expect(error?.description == "unknown source 'zooo'; did you mean 'zoo'?")
        let short = #expect(throws: UnknownSourceError.self) { try registry.source(named: "zo") }
        #expect(short?.description == "unknown source 'zo'; did you mean 'zoo'?")
        let far = #expect(throws: UnknownSourceError.self) { try registry.source(named: "weather") }
        #expect(far?.description == "unknown source 'weather' (agg sources list shows the known ones)")
    }

    /// A source left out because of errors in its definition is named as such, with where it
    /// is defined, not as unknown; a later valid definition of the name replaces it.
    @Test func aSourceWithErrorsIsNotCalledUnknown() throws {
        var registry = SourceRegistry()
        registry.add(DefinitionLoader().load(text: "books:\n  kind: local\n  ttl: 2x\n", file: "my.yaml"), from: DefinitionFile(path: "my.yaml", origin: .commandLine))
        let error = #expect(throws: UnknownSourceError.self) { try registry.source(named: "books") }
        #expect(error?.rejectedAt?.description == "my.yaml:1:1")
        #expect(error?.description == "source 'books' (my.yaml:1:1) has errors in its definition, so it was not loaded; 'agg sources validate my.yaml' lists them")
        registry.add(DefinitionLoader().load(text: "books:\n  kind: local\n", file: "later.yaml"), from: DefinitionFile(path: "later.yaml", origin: .commandLine))
        #expect(try registry.source(named: "books").file.path == "later.yaml")
    }

    @Test func directoriesFollowXDG() {
        let defaults = AggDirectories(environment: ["HOME": "/home/u"])
        #expect(defaults.config == "/home/u/.config/agg")
        #expect(defaults.data == "/home/u/.local/share/agg")
        #expect(defaults.cache == "/home/u/.cache/agg")
        let custom = AggDirectories(environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "relative"])
        #expect(custom.data == "/d/agg")
        #expect(custom.cache == "/home/u/.cache/agg")
    }
}
