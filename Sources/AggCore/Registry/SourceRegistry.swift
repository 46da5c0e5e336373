#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A source definition together with the file it came from.
public struct RegisteredSource: Sendable {
    /// The definition.
    public var definition: SourceDefinition
    /// The file that defined it.
    public var file: DefinitionFile
    /// Earlier definitions of the same name that this one replaced.
    public var overrides: [SourceLocation]

    /// The source's name.
    public var name: String { definition.name }
}

/// Every known source, loaded from definition files in order. A later definition of a name
/// replaces an earlier one; a broken file is reported through `diagnostics` and does not hide
/// the sources of other files.
public struct SourceRegistry: Sendable {
    /// The sources, sorted by name.
    public private(set) var sources: [RegisteredSource] = []
    /// Every diagnostic from every file, in load order.
    public private(set) var diagnostics: [Diagnostic] = []
    /// Where each source that was left out because its definition has errors is defined, by
    /// name (unless a later file defines the name validly).
    public private(set) var rejected: [String: SourceLocation] = [:]

    /// An empty registry.
    public init() {}

    /// Loads `files` in order with `loader`.
    public init(files: [DefinitionFile], loader: DefinitionLoader) {
        load(files, loader: loader)
    }

    /// Loads `files` in order with `loader`, after the files loaded before (so their
    /// definitions override earlier ones of the same name).
    public mutating func load(_ files: [DefinitionFile], loader: DefinitionLoader) {
        for file in files {
            if let contents = file.contents {
                add(loader.load(text: contents, file: file.path), from: file)
                continue
            }
            guard let data = FileManager.default.contents(atPath: file.path) else {
                let reason = FileManager.default.fileExists(atPath: file.path) ? "it cannot be read" : "no such file"
                diagnostics.append(Diagnostic(.error, "cannot load definitions from \(file.path): \(reason)"))
                continue
            }
            add(loader.load(text: String(decoding: data, as: UTF8.self), file: file.path), from: file)
        }
    }

    /// Adds the outcome of loading one file.
    public mutating func add(_ result: DefinitionLoader.Result, from file: DefinitionFile) {
        diagnostics += result.diagnostics
        rejected.merge(result.rejected) { _, later in later }
        for definition in result.sources {
            rejected[definition.name] = nil
            if let index = sources.firstIndex(where: { $0.name == definition.name }) {
                let replaced = sources[index]
                sources[index] = RegisteredSource(
                    definition: definition, file: file,
                    overrides: replaced.overrides + [replaced.definition.location])
            } else {
                sources.append(RegisteredSource(definition: definition, file: file, overrides: []))
            }
        }
        sources.sort { $0.name < $1.name }
    }

    /// True when any file had an error.
    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// The source called `name`; an unknown name throws with the closest known name, and a
    /// name whose definition was left out because of errors throws saying where it is.
    public func source(named name: String) throws(UnknownSourceError) -> RegisteredSource {
        if let source = sources.first(where: { $0.name == name }) { return source }
        if let location = rejected[name] { throw UnknownSourceError(name: name, rejectedAt: location) }
        throw UnknownSourceError(name: name, suggestion: Suggestion.closest(to: name, among: sources.map(\.name)))
    }
}

/// A source name that no definition declares.
public struct UnknownSourceError: Error, Sendable, CustomStringConvertible {
    /// The name asked for.
    public var name: String
    /// The closest known name, when one is close.
    public var suggestion: String?
    /// Where the name is defined, when its definition was left out because of errors.
    public var rejectedAt: SourceLocation?

    /// An error for `name`, which no definition declares (`suggestion` is the closest known
    /// name) or whose definition at `rejectedAt` has errors.
    public init(name: String, suggestion: String? = nil, rejectedAt: SourceLocation? = nil) {
        self.name = name
        self.suggestion = suggestion
        self.rejectedAt = rejectedAt
    }

    public var description: String {
        if let rejectedAt {
            return "source '\(name)' (\(rejectedAt)) has errors in its definition, so it was not loaded; 'agg sources validate \(rejectedAt.file)' lists them"
        }
        var text = "unknown source '\(name)'"
        if let suggestion { text += "; did you mean '\(suggestion)'?" } else { text += " (agg sources list shows the known ones)" }
        return text
    }
}
