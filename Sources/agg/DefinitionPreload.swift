import AggBuiltins
import AggCore

/// The definitions that do not depend on the arguments (the built-in file, `sources.d`,
/// `AGG_SOURCES`), loaded once per process. `agg` starts loading them on another thread
/// before it parses its arguments, which takes longer than the load; a command that needs
/// them then finds them loaded, or waits for the load under way instead of starting another.
enum DefinitionPreload {
    /// The loaded definitions.
    static let registry = Builtins.registry(environment: GlobalOptions.processEnvironment)

    /// Starts loading `registry` on another thread.
    static func start() {
        Task.detached(priority: .userInitiated) { _ = registry }
    }
}
