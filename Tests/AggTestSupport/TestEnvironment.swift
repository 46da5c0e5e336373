import Foundation

/// Environments for running `agg` in tests: private XDG folders, so a developer's own
/// configuration and data never leak in, and every base URL pointed at a fixture server.
public enum TestEnvironment {
    /// XDG folders inside `folder`.
    public static func isolated(_ folder: TemporaryDirectory) -> [String: String] {
        ["HOME": folder.path, "XDG_CONFIG_HOME": folder.path + "/config", "XDG_DATA_HOME": folder.path + "/data",
         "XDG_CACHE_HOME": folder.path + "/cache"]
    }

    /// `isolated(folder)` with every built-in source pointed at `server`.
    public static func pointing(at server: FixtureServer, _ folder: TemporaryDirectory) -> [String: String] {
        var environment = isolated(folder)
        environment["AGG_DATA_TAIPEI"] = server.baseURL
        environment["AGG_FLICKR_API"] = server.baseURL
        environment["AGG_POKEDEX_URL"] = server.baseURL + "/pokedex.json"
        return environment
    }
}
