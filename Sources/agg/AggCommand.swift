import AggCore
import ArgumentParser

/// The `agg` command line: parses arguments, calls `AggCore`, prints.
@main
struct AggCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "agg",
        abstract: "Aggregate public data sources behind one query interface.",
        discussion: """
            Sources are declared in YAML: the built-in sources.yaml, every *.yaml in \
            $XDG_CONFIG_HOME/agg/sources.d/, the colon-separated files in AGG_SOURCES, and each \
            --sources FILE, later ones overriding earlier ones.

            Examples:
              agg sources list
              agg sources show zoo
              agg sources validate my-sources.yaml
              agg sources list --sources my-sources.yaml

            Exit codes:
            \(ExitStatus.helpText)
            """,
        version: AggVersion.current,
        subcommands: [SourcesCommand.self, SyncCommand.self, QueryCommand.self, ShowCommand.self, InsertCommand.self, UpdateCommand.self, DeleteCommand.self, ImagesCommand.self]
    )

    /// Starts loading the definitions while the arguments are parsed, then runs the command.
    static func main() async {
        DefinitionPreload.start()
        await main(nil)
    }
}
