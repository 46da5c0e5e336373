import AggBuiltins
import AggCore
import ArgumentParser
import Foundation

/// `agg sources …`: list, show and validate definitions.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List, show and validate source definitions.",
        subcommands: [List.self, Show.self, Validate.self],
        defaultSubcommand: List.self
    )

    /// Output formats of `sources list`.
    enum ListFormat: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List every known source.",
            discussion: "Shows each source's name, title, kind, decoder and the file that defines it."
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "Output format: table or json.")
        var format: ListFormat = .table

        func run() async throws {
            let registry = global.loadRegistry()
            switch format {
            case .json:
                print(JSONWriter.string(.array(registry.sources.map(Self.json))))
            case .table:
                let rows = registry.sources.map { source in
                    [source.name, source.definition.title, source.definition.kind.rawValue,
                     source.definition.decoder ?? "generic", SourcesCommand.definedIn(source)]
                }
                let table = TextTable(headers: ["NAME", "TITLE", "KIND", "DECODER", "DEFINED IN"], rows: rows)
                print(table.render(maximumWidth: Terminal.standardOutputIsTerminal ? Terminal.width : nil))
            }
        }

        static func json(_ source: RegisteredSource) -> JSONValue {
            var object = JSONObject()
            object["name"] = .string(source.name)
            object["title"] = .string(source.definition.title)
            object["kind"] = .string(source.definition.kind.rawValue)
            object["decoder"] = source.definition.decoder.map(JSONValue.string) ?? .null
            object["file"] = .string(source.file.path)
            object["line"] = .int(source.definition.location.line)
            object["origin"] = .string(source.file.origin.rawValue)
            object["overrides"] = .array(source.overrides.map { .string($0.description) })
            return .object(object)
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one source's definition, resolved, and where it is defined.")

        @OptionGroup var global: GlobalOptions

        @Argument(help: "The source name.")
        var name: String

        func run() async throws {
            try await reportingFailures {
                let registry = global.loadRegistry()
                let source = try global.source(named: name, in: registry)
                print(SourceDescription(source: source, environment: global.environment).text)
            }
        }
    }

    struct Validate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check definition files and report every problem with its file:line:column.",
            discussion: "Exits 0 when every file is valid, 65 otherwise."
        )

        @Argument(help: "Definition files to check.")
        var files: [String]

        func validate() throws {
            if files.isEmpty { throw ValidationError("give at least one definition file to check") }
        }

        func run() async throws {
            let loader = DefinitionLoader(knownDecoders: Builtins.decoders.names)
            var failed = false
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else {
                    Terminal.printError("\(file): error: cannot read the file (does it exist?)")
                    failed = true
                    continue
                }
                let result = loader.load(text: String(decoding: data, as: UTF8.self), file: file)
                for diagnostic in result.diagnostics { Terminal.printError(diagnostic.description) }
                if result.hasErrors {
                    failed = true
                } else {
                    let names = result.sources.map(\.name).joined(separator: ", ")
                    print("\(file): ok (\(result.sources.count) source\(result.sources.count == 1 ? "" : "s")\(names.isEmpty ? "" : ": \(names)"))")
                }
            }
            if failed { throw ExitStatus.definition.code }
        }
    }

    /// `built-in sources.yaml:8` or `path/to/file.yaml:3`.
    static func definedIn(_ source: RegisteredSource) -> String {
        let line = source.definition.location.line
        switch source.file.origin {
        case .builtin: return "built-in sources.yaml:\(line)"
        default: return "\(source.file.path):\(line)"
        }
    }
}
