import AggBuiltins
import AggCore
import ArgumentParser
import Foundation

/// Options every command that reads definitions takes.
struct GlobalOptions: ParsableArguments {
    @Option(name: .customLong("sources"), help: ArgumentHelp("Also load source definitions from FILE (repeatable; later files win).", valueName: "FILE"))
    var sourceFiles: [String] = []

    /// The process environment.
    var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// Loads every definition file and reports broken ones on standard error.
    func loadRegistry() -> SourceRegistry {
        let registry = Builtins.registry(environment: environment, extraFiles: sourceFiles)
        for diagnostic in registry.diagnostics {
            Terminal.printError(diagnostic.description)
        }
        return registry
    }

    /// The source called `name`, or a usage failure with a "did you mean".
    func source(named name: String, in registry: SourceRegistry) throws -> RegisteredSource {
        do {
            return try registry.source(named: name)
        } catch {
            throw CommandFailure(error.description, .usage)
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
        }
    }
}
