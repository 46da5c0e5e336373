#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Aggregator {
    /// Fetches a source (or one parameter set of it), decodes it, and replaces the stored
    /// snapshot atomically. If anything fails, the previous snapshot stays and the error is
    /// thrown: a `ConfigurationError` (before anything is fetched), a `SyncError`, or an
    /// `UnknownSourceError`. When the endpoint cannot be reached, nothing is stored for the
    /// collection yet and a bundled snapshot exists, the store is seeded from it instead and
    /// a notice says so.
    public func sync(
        _ source: String, options: SyncOptions = SyncOptions(), client: HTTPClient? = nil,
        progress: @Sendable (SyncEvent) -> Void = { _ in }
    ) async throws -> SyncReport {
        let definition = try self.source(named: source)
        guard definition.kind == .remote else {
            throw SyncError(kind: .localSource, source: source, message: "'\(source)' is a local collection; there is nothing to fetch")
        }
        let request = try definition.resolveRequest(environment: environment, parameters: options.parameters)
        let decoder = try decoders.decoder(for: definition)
        let collection = CollectionID(source: source, parameters: request.parameters)
        let pipeline = RecordPipeline(definition: definition, decoder: decoder)
        let started = Date()
        do {
            if let client {
                return try await fetchSnapshot(definition, request, pipeline, collection, options, client, started, progress)
            }
            return try await HTTPClient.withHTTPClient(httpConfiguration) { client in
                try await fetchSnapshot(definition, request, pipeline, collection, options, client, started, progress)
            }
        } catch let error as HTTPError {
            if error.isUnreachable, options.allowBundledSnapshot,
               try await store.syncState(of: collection) == nil,
               let bundled = bundledSnapshots?.snapshot(for: source) {
                return try await seed(collection, definition: definition, from: bundled, because: "cannot reach the source (\(error.detail))", started: started, progress: progress)
            }
            throw SyncError(kind: .network, source: source, message: error.description)
        } catch let error as SourceResponseError {
            throw SyncError(kind: .response, source: source, message: request.redact(error.message), code: error.code)
        }
    }

    private func fetchSnapshot(
        _ definition: SourceDefinition, _ request: ResolvedRequest, _ pipeline: RecordPipeline, _ collection: CollectionID,
        _ options: SyncOptions, _ client: HTTPClient, _ started: Date, _ progress: @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        let storedTotal = options.page == .random ? try await store.syncState(of: collection)?.totalPages : nil
        let walker = PageWalker(definition: definition, request: request, pipeline: pipeline, client: client, options: options, storedTotalPages: storedTotal)
        let writer = try await store.beginSnapshot(of: collection)
        var records = 0
        var skipped = 0
        var warnings: [String] = []
        var pages = 0
        do {
            var expected: Int?
            var outcome = try await walker.walk { page in
                try await writer.append(page.records)
                records += page.records.count
                skipped += page.skipped
                pages += 1
                expected = page.reportedTotal ?? expected
                for warning in page.warnings.prefix(3) where !warnings.contains(warning) {
                    warnings.append(warning)
                    progress(.warning(request.redact(warning)))
                }
                progress(.page(number: pages, records: page.records.count, totalRecords: records, expectedRecords: expected, bytes: page.bytes))
            }
            outcome.warnings.forEach { progress(.warning(request.redact($0))) }
            warnings += outcome.warnings
            if skipped > 0 { warnings.append("\(skipped) record\(skipped == 1 ? " was" : "s were") skipped as unreadable") }
            let state = SyncState(
                syncedAt: Date(), stopReason: outcome.stopReason.rawValue, recordCount: records, pagesFetched: outcome.pages,
                totalPages: outcome.totalPages, currentPage: outcome.currentPage)
            try await writer.commit(state)
            outcome.pages = max(outcome.pages, pages)
            return SyncReport(
                collection: collection, stopReason: outcome.stopReason, pages: outcome.pages, records: records, skipped: skipped,
                warnings: warnings.map(request.redact), bytes: outcome.bytes, duration: Date().timeIntervalSince(started),
                totalPages: outcome.totalPages, currentPage: outcome.currentPage, provenance: .network)
        } catch {
            await writer.abort()
            throw error
        }
    }

    /// Stores a bundled snapshot as `collection`'s data and says so through `progress`.
    func seed(
        _ collection: CollectionID, definition: SourceDefinition, from bundled: BundledSnapshot, because reason: String,
        started: Date = Date(), progress: @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        let pipeline = RecordPipeline(definition: definition, decoder: try decoders.decoder(for: definition))
        let page = try pipeline.page(from: bundled.body)
        let state = SyncState(
            syncedAt: Date(), stopReason: StopReason.bundledSnapshot.rawValue, recordCount: page.records.count, pagesFetched: 1,
            provenance: .bundledSnapshot(recorded: bundled.recorded))
        try await store.replaceSnapshot(of: collection, with: [page.records].async) { _ in state }
        let caveat = Self.bundledSnapshotCaveat(for: collection).map { "; \($0)" } ?? ""
        progress(.notice("\(collection.source): \(reason); using the bundled snapshot recorded \(bundled.recorded) (\(page.records.count) records\(caveat)). Run 'agg sync \(collection.source)' when online."))
        return SyncReport(
            collection: collection, stopReason: .bundledSnapshot, pages: 1, records: page.records.count, skipped: page.skipped,
            warnings: page.warnings, bytes: bundled.body.count, duration: Date().timeIntervalSince(started),
            provenance: .bundledSnapshot(recorded: bundled.recorded))
    }

    /// For a collection with parameters, that a bundled snapshot stored as its data answers
    /// for other parameters (`recorded with other parameters, not lat=1, lon=2`): a recorded
    /// Flickr search shows photos of the place it was recorded for, not of the one asked.
    static func bundledSnapshotCaveat(for collection: CollectionID) -> String? {
        guard !collection.parameters.isEmpty else { return nil }
        let values = collection.parameterValues.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return "recorded with other parameters, not \(values.joined(separator: ", "))"
    }
}

extension Array where Element: Sendable {
    /// The elements as an async sequence.
    var async: AsyncStream<Element> {
        AsyncStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
