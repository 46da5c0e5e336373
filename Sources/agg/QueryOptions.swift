import AggCore
import ArgumentParser

/// The filters, sort and slice of `agg query` (and `agg images fetch`), turned into a
/// `RecordQuery`.
struct QueryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Records whose search field (or --field) starts with TEXT; case and width are ignored.", valueName: "TEXT"))
    var prefix: String?

    @Option(help: ArgumentHelp("The field --prefix looks at (default: the source's search field).", valueName: "FIELD"))
    var field: String?

    @Option(help: ArgumentHelp("Records with TEXT anywhere in a field (or in --field).", valueName: "TEXT"))
    var contains: String?

    @Option(name: .customLong("where"), help: ArgumentHelp("A condition FIELD=VALUE, also !=, <, >, <=, >= (numbers and ISO dates); repeatable.", valueName: "COND"))
    var conditions: [String] = []

    @Option(help: ArgumentHelp("Sort by FIELD, or FIELD:desc; repeatable. Default: your records first, newest first, then the source's order.", valueName: "FIELD[:desc]"))
    var sort: [String] = []

    // Unconditional, so that `--limit -1` reaches `validate()` as a number instead of
    // reading as a missing value followed by an option.
    @Option(parsing: .unconditional, help: "At most this many records.")
    var limit: Int?

    @Option(parsing: .unconditional, help: "Skip this many records first.")
    var offset: Int = 0

    @Option(help: "Which records: all, local (yours) or remote.")
    var origin: RecordQuery.OriginFilter = .all

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more") }
        if offset < 0 { throw ValidationError("--offset must be 0 or more") }
        if field != nil, prefix == nil, contains == nil { throw ValidationError("--field goes with --prefix or --contains") }
        for condition in conditions { _ = try Self.parseCondition(condition) }
        for key in sort { _ = try Self.parseSort(key) }
    }

    /// The query for `collection` of `definition`.
    func query(for definition: SourceDefinition, collection: CollectionID, includeRaw: Bool = false) throws -> RecordQuery {
        var filters: [RecordQuery.Filter] = []
        if let prefix {
            guard let searchField = field ?? definition.search else {
                throw CommandFailure("source '\(definition.name)' has no search field; name one with --field", .usage)
            }
            filters.append(.prefix(field: searchField, text: prefix))
        }
        if let contains { filters.append(.contains(field: field, text: contains)) }
        filters += try conditions.map(Self.parseCondition)
        return RecordQuery(
            collection: collection, origin: origin, filters: filters, sort: try sort.map(Self.parseSort),
            limit: limit, offset: offset, searchField: definition.search, includeRaw: includeRaw)
    }

    static func parseCondition(_ text: String) throws -> RecordQuery.Filter {
        let operators: [RecordQuery.Comparison] = [.notEqual, .lessOrEqual, .greaterOrEqual, .equal, .less, .greater]
        var best: (range: Range<String.Index>, comparison: RecordQuery.Comparison)?
        for comparison in operators {
            if let range = text.firstRange(of: comparison.rawValue), best == nil || range.lowerBound < best!.range.lowerBound {
                best = (range, comparison)
            }
        }
        guard let best, best.range.lowerBound != text.startIndex else {
            throw ValidationError("'\(text)' is not a condition like name=大貓熊, id>=10 or updated<2021-01-01")
        }
        return .compare(field: String(text[..<best.range.lowerBound]), best.comparison, value: String(text[best.range.upperBound...]))
    }

    static func parseSort(_ text: String) throws -> RecordQuery.SortKey {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard let field = parts.first, !field.isEmpty, parts.count <= 2 else { throw ValidationError("'\(text)' is not FIELD or FIELD:desc") }
        if parts.count == 2 {
            guard ["asc", "desc"].contains(parts[1]) else { throw ValidationError("'\(text)': the order after ':' is asc or desc") }
        }
        return RecordQuery.SortKey(field: String(field), descending: parts.count == 2 && parts[1] == "desc")
    }
}

extension RecordQuery.OriginFilter: EnumArgument {}
extension RecordFormatter.Format: EnumArgument {}
