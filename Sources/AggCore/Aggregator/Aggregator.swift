#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The one interface to agg for the command line and for embedding tools: a registry of
/// sources, a store, and decoders, all chosen by the caller.
///
/// ```swift
/// let aggregator = Aggregator(registry: registry, store: MemoryRecordStore(), decoders: decoders)
/// let record = try await aggregator.insert(into: "faces", fields: ["name": "Ada"], image: .file("ada.png"))
/// let records = try await aggregator.records(of: "faces")
/// ```
public struct Aggregator: Sendable {
    /// Known sources.
    public var registry: SourceRegistry
    /// Where records live.
    public var store: any RecordStore
    /// Registered decoder plug-ins.
    public var decoders: DecoderRegistry
    /// The environment templates read (`${NAME}`), normally the process's.
    public var environment: [String: String]
    /// Recorded responses to fall back on when a source cannot be reached and nothing is
    /// stored yet; nil for none.
    public var bundledSnapshots: (any BundledSnapshotProvider)?
    /// Limits of the HTTP client syncs use.
    public var httpConfiguration: HTTPClientConfiguration

    /// Creates an aggregator.
    public init(
        registry: SourceRegistry, store: any RecordStore, decoders: DecoderRegistry,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        bundledSnapshots: (any BundledSnapshotProvider)? = nil,
        httpConfiguration: HTTPClientConfiguration = HTTPClientConfiguration()
    ) {
        self.bundledSnapshots = bundledSnapshots
        self.httpConfiguration = httpConfiguration
        self.registry = registry
        self.store = store
        self.decoders = decoders
        self.environment = environment
    }

    /// The definition of `name`.
    public func source(named name: String) throws(UnknownSourceError) -> SourceDefinition {
        try registry.source(named: name).definition
    }

    /// The merged view of a source (local records newest first, then remote ones), or of one
    /// of its parameterised collections.
    public func records(of source: String, parameters: [String: String] = [:]) async throws -> [Record] {
        let definition = try self.source(named: source)
        return try await store.records(matching: RecordQuery(
            collection: try collection(of: definition, parameters: parameters), searchField: definition.search))
    }

    /// The collection of `definition` for `parameters`, with defaults filled in and values
    /// checked.
    public func collection(of definition: SourceDefinition, parameters: [String: String]) throws(ConfigurationError) -> CollectionID {
        CollectionID(source: definition.name, parameters: try definition.resolveParameters(parameters))
    }

    /// The record `key` of `source`: one of the user's, or a remote one of the collection
    /// for `parameters`.
    public func record(key: String, of source: String, parameters: [String: String] = [:]) async throws -> Record? {
        let definition = try self.source(named: source)
        return try await store.record(key: key, in: collection(of: definition, parameters: parameters))
    }
}
