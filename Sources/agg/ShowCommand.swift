import AggCore
import ArgumentParser

/// `agg show SOURCE KEY`: one record in full.
struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Show one record in full: every field, its image, origin and times.",
        discussion: "Example:\n  agg show metro 台北車站站/南港展覽館站"
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var target: RecordArguments

    @OptionGroup var parameters: ParameterOptions

    @Option(help: "table (readable, the default) or json.")
    var format: RecordFormatter.Format = .table

    func run() async throws {
        try await reportingFailures {
            let (source, key) = (target.source, target.key)
            let aggregator = try global.makeAggregator()
            let definition = try aggregator.source(named: source)
            let given = try parameters.values
            let collection = try aggregator.collection(of: definition, parameters: given)
            let stored = try await aggregator.store.syncState(of: collection) != nil
            let state = try await DataPreparation.prepare(collection, with: aggregator, freshness: stored ? .offline : .automatic, parameters: given)
            guard let record = try await aggregator.store.record(key: key, in: collection) else {
                throw CommandFailure("no record '\(key)' in source '\(source)' (agg query \(source) lists the keys)", .usage)
            }
            let imagePath = try await aggregator.imagePath(of: record, in: global.imageCache)
            let formatter = RecordFormatter(definition: definition, includeRaw: true, imageCache: global.imageCache)
            switch format {
            case .json, .ndjson:
                print(JSONWriter.string(formatter.json(record)))
            case .table, .csv:
                print(RecordDetail(record: record, definition: definition, imagePath: imagePath, provenance: state?.provenance).text)
            }
        }
    }
}
