import AggCore

/// Gets a collection's data ready before a command reads it (`Aggregator.prepare`), with a
/// progress line on a terminal, notices on standard error, and sync failures as messages
/// with the "no usable data" exit code.
enum DataPreparation {
    /// Prepares `collection` and returns the state of the remote data it will answer from
    /// (nil for local sources and local records only).
    @discardableResult
    static func prepare(
        _ collection: CollectionID, with aggregator: Aggregator, freshness: Freshness,
        page: PageSelection? = nil, parameters: [String: String], origin: RecordQuery.OriginFilter = .all
    ) async throws -> SyncState? {
        let progress = ProgressLine()
        let result: QueryResult
        do {
            result = try await aggregator.prepare(
                collection, freshness: freshness, page: page, parameters: parameters, origin: origin,
                progress: progress.syncHandler(source: collection.source))
        } catch let error as SyncError {
            progress.clear()
            throw CommandFailure(SyncRunner.message(error, keptData: false), .unavailable)
        }
        progress.clear()
        if let report = result.sync, Terminal.standardErrorIsTerminal { Terminal.printError("agg: synced \(report.summary)") }
        for notice in result.notices { Terminal.printError("agg: \(notice)") }
        return result.state
    }
}
