import AggBuiltins
import AggCore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `agg sources …`: list, show and validate definitions.
struct SourcesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sources",
        abstract: "List, show and validate source definitions.",
        subcommands: [List.self, Show.self, Validate.self],
        defaultSubcommand: List.self
    )

    /// Output formats of `sources list`.
    enum ListFormat: String, EnumArgument {
        case table, json
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List every known source.",
            discussion: "Shows each source's name, title, kind, decoder and the file that defines it."
        )

        @OptionGroup var global: GlobalOptions

        @Option(help: "Output format: table or json.")
        var format: ListFormat = .table

        func run() async throws {
            try await reportingFailures {
                let aggregator = try global.makeAggregator()
                var statuses: [SourceStatus] = []
                for source in aggregator.registry.sources {
                    statuses.append(try await SourceStatus(source, store: aggregator.store))
                }
                switch format {
                case .json:
                    print(JSONWriter.string(.array(statuses.map(\.json))))
                case .table:
                    let rows = statuses.map { status in
                        [status.source.name, status.source.definition.title, status.source.definition.kind.rawValue,
                         status.source.definition.decoder ?? "generic", String(status.records), status.lastSync, status.freshness,
                         SourcesCommand.definedIn(status.source)]
                    }
                    let headers = ["NAME", "TITLE", "KIND", "DECODER", "RECORDS", "LAST SYNC", "FRESH", "DEFINED IN"]
                    print(TextTable(headers: headers, rows: rows).render(maximumWidth: Terminal.standardOutputIsTerminal ? Terminal.width : nil))
                }
            }
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show one source's definition, resolved, and where it is defined.")

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
            commandName: "validate",
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
