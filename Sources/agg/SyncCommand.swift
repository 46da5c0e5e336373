import AggCore
import ArgumentParser

/// Parses `--page N` or `--page random`.
extension PageSelection: ExpressibleByArgument {
    public init?(argument: String) {
        if argument == "random" {
            self = .random
        } else if let number = Int(argument), number >= 0 {
            self = .number(number)
        } else {
            return nil
        }
    }
}

/// `agg sync SOURCE` / `agg sync --all`.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Fetch sources and replace their stored snapshots (your own records are never touched).",
        discussion: """
            A sync replaces the snapshot atomically: if it fails or is interrupted, the previous \
            snapshot stays as it was.

            Examples:
              agg sync zoo
              agg sync flickr --param lat=25.03 --param lon=121.56
              agg sync flickr --param lat=25.03 --param lon=121.56 --page random
              agg sync --all
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The source to sync.")
    var source: String?

    @Flag(help: "Sync every remote source (and every stored collection of parameterised ones).")
    var all = false

    @OptionGroup var parameters: ParameterOptions

    @Option(help: ArgumentHelp("Fetch only this page, or a random one (page-numbered sources such as flickr).", valueName: "N|random"))
    var page: PageSelection?

    func validate() throws {
        if all == (source != nil) { throw ValidationError("name one source to sync, or give --all") }
        if all, !parameters.assignments.isEmpty || page != nil { throw ValidationError("--param and --page go with a single source, not --all") }
    }

    func run() async throws {
        try await reportingFailures {
            let aggregator = try global.makeAggregator()
            if let source {
                let options = SyncOptions(parameters: try parameters.values, page: page)
                let report = try await SyncRunner.sync(source, options: options, with: aggregator)
                print(report.summary)
                return
            }
            var failed: ExitStatus?
            for registered in aggregator.registry.sources where registered.definition.kind == .remote {
                let definition = registered.definition
                var parameterSets: [[String: String]] = [[:]]
                if definition.parameters.contains(where: { $0.required && $0.defaultValue == nil }) {
                    parameterSets = try await aggregator.store.collections(of: definition.name).map(\.parameterValues)
                    if parameterSets.isEmpty {
                        Terminal.printError("agg: \(definition.name): skipped; it needs parameters (agg sync \(definition.name) --param …)")
                        continue
                    }
                }
                for values in parameterSets {
                    do {
                        let report = try await SyncRunner.sync(definition.name, options: SyncOptions(parameters: values), with: aggregator)
                        print(report.summary)
                    } catch {
                        let status = SyncRunner.report(error)
                        failed = failed ?? status
                    }
                }
            }
            if let failed { throw failed.code }
        }
    }
}

/// Runs syncs with a progress line and turns their errors into messages and exit codes.
enum SyncRunner {
    static func sync(_ source: String, options: SyncOptions, with aggregator: Aggregator) async throws -> SyncReport {
        let progress = ProgressLine()
        defer { progress.clear() }
        do {
            return try await aggregator.sync(source, options: options, progress: progress.syncHandler(source: source))
        } catch let error as SyncError {
            progress.clear()
            throw CommandFailure(SyncRunner.message(error), error.kind == .localSource ? .usage : .unavailable)
        }
    }

    /// The message of a failed sync; `keptData` adds that nothing stored was changed. When the
    /// source could not be reached it also says what to do: retry, and where its address is.
    static func message(_ error: SyncError, keptData: Bool = true) -> String {
        var text = "sync failed: \(error.description)"
        if let code = error.code { text += " (\(error.source) error code \(code))" }
        if keptData { text += "; the stored data was left as it was" }
        if error.kind == .network {
            text += ". Once the source can be reached, sync again; 'agg sources show \(error.source)' shows the address it uses"
        }
        return text
    }

    /// Prints `error` and returns its exit status.
    static func report(_ error: any Error) -> ExitStatus {
        switch error {
        case let failure as CommandFailure:
            Terminal.printError("agg: \(failure.message)")
            return failure.status
        case let error as ConfigurationError:
            Terminal.printError("agg: \(error)")
            return .configuration
        default:
            Terminal.printError("agg: \(error)")
            return .unavailable
        }
    }
}
