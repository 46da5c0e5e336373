import AggCore
import AggFileStore
import AggSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Opens a store from a URL (`--store` or `AGG_STORE`): `sqlite:PATH` (the default, at
/// `$XDG_DATA_HOME/agg/agg.sqlite`), `memory:` or `file:DIR`.
public enum StoreLocator {
    /// The forms `open` understands, for messages.
    public static let supportedForms = ["sqlite:PATH", "memory:", "file:DIR"]

    /// The store named by `location`, or the default SQLite store when it is nil or empty.
    public static func open(_ location: String?, directories: AggDirectories) throws -> any RecordStore {
        guard let location, !location.isEmpty else {
            return try SQLiteRecordStore(path: directories.data + "/agg.sqlite")
        }
        guard let colon = location.firstIndex(of: ":") else {
            throw StoreError(.unsupportedLocation, "'\(location)' is not a store URL; use one of \(supportedForms.joined(separator: ", "))")
        }
        let scheme = location[..<colon].lowercased()
        var rest = String(location[location.index(after: colon)...])
        if rest.hasPrefix("//") { rest.removeFirst(2) }
        let path = expand(rest, home: directories.home)
        switch scheme {
        case "sqlite":
            return try SQLiteRecordStore(path: path.isEmpty ? directories.data + "/agg.sqlite" : path)
        case "memory":
            return MemoryRecordStore()
        case "file":
            guard !path.isEmpty else { throw StoreError(.unsupportedLocation, "'file:' needs a folder, as in file:./agg-data") }
            return try FileRecordStore(directory: path)
        case "postgres", "postgresql":
            throw StoreError(.unsupportedLocation, "PostgreSQL stores are not available in this build of agg; use one of \(supportedForms.joined(separator: ", "))")
        default:
            let suggestion = Suggestion.didYouMean(scheme, among: ["sqlite", "memory", "file"])
            throw StoreError(.unsupportedLocation, "unknown store scheme '\(scheme)'\(suggestion); use one of \(supportedForms.joined(separator: ", "))")
        }
    }

    /// `~/x` → `home/x`; relative paths are made absolute against the current directory.
    static func expand(_ path: String, home: String) -> String {
        var result = path
        if result.hasPrefix("~/") { result = home + result.dropFirst(1) }
        if !result.isEmpty, !result.hasPrefix("/") { result = FileManager.default.currentDirectoryPath + "/" + result }
        return result
    }
}
