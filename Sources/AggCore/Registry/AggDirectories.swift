/// Where agg keeps its files, following the XDG base directory convention:
/// `$XDG_CONFIG_HOME/agg` (default `~/.config/agg`), `$XDG_DATA_HOME/agg` (default
/// `~/.local/share/agg`) and `$XDG_CACHE_HOME/agg` (default `~/.cache/agg`).
public struct AggDirectories: Sendable, Hashable {
    /// The home folder: `$HOME` (or `/tmp` without one), which `~` stands for.
    public var home: String
    /// Configuration: user definitions live in `sources.d/` here.
    public var config: String
    /// Data: the default SQLite store.
    public var data: String
    /// Cache: downloaded images.
    public var cache: String

    /// The directories for an environment (normally `ProcessInfo.processInfo.environment`).
    public init(environment: [String: String]) {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        self.home = home
        func base(_ variable: String, _ fallback: String) -> String {
            if let value = environment[variable], value.hasPrefix("/") { return value }
            return home + "/" + fallback
        }
        config = base("XDG_CONFIG_HOME", ".config") + "/agg"
        data = base("XDG_DATA_HOME", ".local/share") + "/agg"
        cache = base("XDG_CACHE_HOME", ".cache") + "/agg"
    }

    /// The folder of user definitions.
    public var userSources: String { config + "/sources.d" }
}
