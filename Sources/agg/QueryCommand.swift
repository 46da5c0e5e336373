import AggCore
import ArgumentParser

/// `agg query SOURCE …`: the merged view of a source, filtered and formatted.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "List a source's records: yours first (newest first), then the remote ones.",
        discussion: """
            Examples:
              agg query zoo --prefix 大
              agg query zoo --contains 熊 --fields name,location
              agg query pokemon --where types=Fire --sort id:desc --format json
              agg query metro --format ndjson
            """
    )

    @OptionGroup var global: GlobalOptions
    @OptionGroup var filters: QueryOptions

    @Argument(help: "The source.")
    var source: String

    @OptionGroup var parameters: ParameterOptions

    @Option(help: ArgumentHelp("Only these fields, comma-separated.", valueName: "A,B,C"))
    var fields: String?

    @Option(help: "table (default on a terminal), json, ndjson (default when piped) or csv.")
    var format: RecordFormatter.Format?

    @Flag(help: "Include each record's raw document (json, ndjson).")
    var raw = false

    @Flag(help: "Sync first, even if the stored data is fresh.")
    var refresh = false

    @Flag(help: "Never touch the network; answer from stored data (or the bundled snapshot).")
    var offline = false

    @Option(help: ArgumentHelp("Fetch this page first, or a random one: a new collection (page-numbered sources such as flickr).", valueName: "N|random"))
    var page: PageSelection?

    func validate() throws {
        if refresh && offline { throw ValidationError("--refresh and --offline contradict each other") }
        if offline && page != nil { throw ValidationError("--page fetches a page, which --offline forbids") }
    }

    func run() async throws {
        try await reportingFailures {
            let aggregator = try global.makeAggregator()
            let definition = try aggregator.source(named: source)
            let given = try parameters.values
            let collection = try aggregator.collection(of: definition, parameters: given)
            let query = try filters.query(for: definition, collection: collection, includeRaw: raw)
            try await DataPreparation.prepare(
                collection, with: aggregator, freshness: refresh ? .refresh : (offline ? .offline : .automatic),
                page: page, parameters: given, origin: query.origin)
            let selected = fields.map { $0.split(separator: ",").map { String($0).trimmingSpaces } }
            let formatter = RecordFormatter(definition: definition, fields: selected, includeRaw: raw, imageCache: global.imageCache)
            let outputFormat = format ?? (Terminal.standardOutputIsTerminal ? .table : .ndjson)
            var fieldCheck = UnknownFieldCheck(named: (query.namedFields + (selected ?? [])).uniqued())
            var count = 0
            switch outputFormat {
            case .table, .csv:
                // Both need every record first: for the column widths, for the header row.
                let records = try await aggregator.store.records(matching: query)
                count = records.count
                records.forEach { fieldCheck.note($0) }
                if outputFormat == .csv {
                    print(formatter.csv(records), terminator: "")
                } else if !records.isEmpty {
                    print(formatter.table(records, width: Terminal.standardOutputIsTerminal ? Terminal.width : nil))
                }
            case .json, .ndjson:
                // Written as the records are read, so an export holds one record at a time.
                let output = StandardOutputWriter()
                defer { output.flush() }
                let array = outputFormat == .json
                if array { output.append("[".utf8) }
                try await aggregator.store.forEachRecord(matching: query) { record in
                    if array, count > 0 { output.append(",".utf8) }
                    output.append(formatter.jsonLine(record))
                    if !array { output.append("\n".utf8) }
                    fieldCheck.note(record)
                    count += 1
                }
                if array { output.append("]\n".utf8) }
            }
            let unknownField = try await fieldCheck.report(collection, with: aggregator)
            if count == 0 {
                if unknownField { throw ExitStatus.usage.code }
                if Terminal.standardErrorIsTerminal { Terminal.printError("no records matched") }
                throw ExitStatus.noResults.code
            }
        }
    }
}
