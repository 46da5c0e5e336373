import AggCore

/// The fields a query names (in filters, sort keys and `--fields`) that none of its answer's
/// records had. Afterwards they are looked up among the stored records, so a misspelt field
/// gets a "did you mean" instead of a silently empty answer, column or sort.
struct UnknownFieldCheck {
    private var unseen: [String]
    private let sample = 1000

    /// Starts with every named field unseen.
    init(named: [String]) {
        unseen = named
    }

    /// Notes the fields `record` has.
    mutating func note(_ record: Record) {
        if !unseen.isEmpty { unseen.removeAll { RecordQuery.value(of: record, $0) != nil } }
    }

    /// Says on standard error which fields never seen no stored record has, with the closest
    /// that exists. Returns whether one is certainly unknown: every stored record was read.
    func report(_ collection: CollectionID, with aggregator: Aggregator) async throws -> Bool {
        guard !unseen.isEmpty else { return false }
        let known = try await aggregator.fieldNames(in: collection, sample: sample)
        let candidates = known.names.sorted()
        var certain = false
        for name in unseen where !known.names.contains(name) {
            let hint = Suggestion.didYouMean(name, among: candidates)
            if known.isComplete {
                Terminal.printError("agg: no \(collection.source) record has a field '\(name)'\(hint)")
                certain = true
            } else {
                Terminal.printError("agg: none of the first \(sample) \(collection.source) records has a field '\(name)'\(hint)")
            }
        }
        return certain
    }
}
