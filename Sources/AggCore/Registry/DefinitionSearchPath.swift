#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One definition file to load, and why it is loaded.
public struct DefinitionFile: Sendable, Hashable {
    /// Where a definition file was found.
    public enum Origin: String, Sendable {
        /// The `sources.yaml` that ships with agg.
        case builtin
        /// `sources.d/` in the user's configuration folder.
        case userFolder = "sources.d"
        /// A path in `AGG_SOURCES`.
        case environment = "AGG_SOURCES"
        /// A `--sources FILE` option.
        case commandLine = "--sources"
    }

    /// The path as given (for a file with `contents`, the name its diagnostics show).
    public var path: String
    /// Why it is loaded.
    public var origin: Origin
    /// The file's text when it is not read from `path`, such as the built-in file compiled
    /// into the binary; nil to read `path`.
    public var contents: String?

    /// Names a file to load: read from `path`, or `contents` when given.
    public init(path: String, origin: Origin, contents: String? = nil) {
        self.path = path
        self.origin = origin
        self.contents = contents
    }
}

/// The order definition files are loaded in; a later definition of a name overrides an
/// earlier one.
public enum DefinitionSearchPath {
    /// The built-in file, then every `*.yaml`/`*.yml` in `sources.d/` (sorted by name), then
    /// the colon-separated paths in `AGG_SOURCES`, then each `--sources` file.
    public static func files(
        builtin: DefinitionFile?, environment: [String: String], commandLine: [String]
    ) -> [DefinitionFile] {
        var files: [DefinitionFile] = []
        if let builtin { files.append(builtin) }
        let folder = AggDirectories(environment: environment).userSources
        if let names = try? FileManager.default.contentsOfDirectory(atPath: folder) {
            for name in names.sorted() where name.hasSuffix(".yaml") || name.hasSuffix(".yml") {
                files.append(DefinitionFile(path: folder + "/" + name, origin: .userFolder))
            }
        }
        if let list = environment["AGG_SOURCES"] {
            for path in list.split(separator: ":") where !path.isEmpty {
                files.append(DefinitionFile(path: String(path), origin: .environment))
            }
        }
        files += commandLine.map { DefinitionFile(path: $0, origin: .commandLine) }
        return files
    }
}
