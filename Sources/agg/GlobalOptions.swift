import AggBuiltins
import AggCore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Options every command that reads definitions takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("sources"), help: ArgumentHelp("Also load source definitions from FILE (repeatable; later files win).", valueName: "FILE"))
    var sourceFiles: [String] = []

    @Option(name: .customLong("store"), help: ArgumentHelp("Where records live: sqlite:PATH (default), memory: or file:DIR. Also AGG_STORE.", valueName: "URL"))
    var storeLocation: String?

    /// The process environment.
    var environment: [String: String] { Self.processEnvironment }

    /// Read once: `ProcessInfo` builds a new dictionary from `environ` on every call.
    static let processEnvironment = ProcessInfo.processInfo.environment

    /// Every definition file (the preloaded ones, then each `--sources` file); reports broken
    /// ones on standard error.
    func loadRegistry() -> SourceRegistry {
        var registry = DefinitionPreload.registry
        registry.load(sourceFiles.map { DefinitionFile(path: $0, origin: .commandLine) }, loader: Builtins.definitionLoader)
        for diagnostic in registry.diagnostics {
            Terminal.printError(diagnostic.description)
        }
        return registry
    }

    /// The registry, the store chosen by `--store`/`AGG_STORE`, and the built-in decoders.
    func makeAggregator() throws -> Aggregator {
        let registry = loadRegistry()
        do {
            let store = try StoreLocator.open(storeLocation ?? environment["AGG_STORE"], directories: AggDirectories(environment: environment))
            return Aggregator(
                registry: registry, store: store, decoders: Builtins.decoders, environment: environment,
                bundledSnapshots: BuiltinSnapshots())
        } catch let error as StoreError {
            throw CommandFailure(error.description, error.kind == .unsupportedLocation ? .usage : .storage)
        }
    }

    /// The user's image cache.
    var imageCache: ImageCache { ImageCache(directories: AggDirectories(environment: environment)) }

    /// The source called `name`, or a usage failure with a "did you mean".
    func source(named name: String, in registry: SourceRegistry) throws -> RegisteredSource {
        do {
            return try registry.source(named: name)
        } catch {
            throw CommandFailure(error.description, error.rejectedAt == nil ? .usage : .definition)
        }
    }
}

extension AsyncParsableCommand {
    /// Runs `body`, turning a `CommandFailure` into its message on standard error and its
    /// exit code.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CommandFailure {
            Terminal.printError("agg: \(failure.message)")
            throw failure.status.code
        } catch let error as UnknownSourceError {
            Terminal.printError("agg: \(error)")
            throw (error.rejectedAt == nil ? ExitStatus.usage : ExitStatus.definition).code
        } catch let error as InputError {
            Terminal.printError("agg: \(error)")
            throw ExitStatus.usage.code
        } catch let error as ConfigurationError {
            Terminal.printError("agg: \(error)")
            switch error.kind {
            case .missingParameter, .unknownParameter, .invalidParameter: throw ExitStatus.usage.code
            case .missingVariable, .missingSecret: throw ExitStatus.configuration.code
            }
        } catch let error as StoreError {
            Terminal.printError("agg: \(error)")
            switch error.kind {
            case .notFound, .notLocal, .unsupportedLocation: throw ExitStatus.usage.code
            case .backend: throw ExitStatus.storage.code
            }
        }
    }
}
