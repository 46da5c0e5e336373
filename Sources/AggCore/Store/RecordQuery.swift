/// What to read from a store: one collection's merged view, filtered, sorted and sliced. The
/// CLI's `agg query` options and embedding tools build the same value.
public struct RecordQuery: Sendable, Hashable {
    /// Which records by origin.
    public enum OriginFilter: String, Sendable, CaseIterable {
        case all, local, remote
    }

    /// A comparison in a `where` filter.
    public enum Comparison: String, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", less = "<", greater = ">", lessOrEqual = "<=", greaterOrEqual = ">="
    }

    /// A condition on records.
    public enum Filter: Sendable, Hashable {
        /// The field's text starts with the text (Unicode- and case-folded).
        case prefix(field: String, text: String)
        /// The field's text contains the text (folded); with no field, any field's does.
        case contains(field: String?, text: String)
        /// The field compares to the value: numerically when both are numbers, else as text
        /// (ISO 8601 dates compare correctly as text).
        case compare(field: String, Comparison, value: String)
    }

    /// A sort key.
    public struct SortKey: Sendable, Hashable {
        /// The field.
        public var field: String
        /// Largest first.
        public var descending: Bool

        /// Creates a sort key.
        public init(field: String, descending: Bool = false) {
            self.field = field
            self.descending = descending
        }
    }

    /// The collection whose remote records are read; local records are the source's.
    public var collection: CollectionID
    /// Local, remote or both.
    public var origin: OriginFilter
    /// Conditions, all of which must hold.
    public var filters: [Filter]
    /// Sort keys; empty keeps the merged view's order.
    public var sort: [SortKey]
    /// The most records to return.
    public var limit: Int?
    /// Records to skip first.
    public var offset: Int
    /// The source's search field, which stores may index (`RemoteRecord.searchText`).
    public var searchField: String?
    /// Whether records should carry their raw documents (slower to read).
    public var includeRaw: Bool

    /// A query for the merged view of `collection`.
    public init(
        collection: CollectionID, origin: OriginFilter = .all, filters: [Filter] = [], sort: [SortKey] = [],
        limit: Int? = nil, offset: Int = 0, searchField: String? = nil, includeRaw: Bool = false
    ) {
        self.includeRaw = includeRaw
        self.collection = collection
        self.origin = origin
        self.filters = filters
        self.sort = sort
        self.limit = limit
        self.offset = offset
        self.searchField = searchField
    }

    /// The folded prefix a store can look up in its search index, when the query has a
    /// prefix filter on the search field.
    public var indexedPrefix: String? {
        for filter in filters {
            if case .prefix(let field, let text) = filter, field == searchField { return TextFolding.fold(text) }
        }
        return nil
    }

    /// The folded texts a store can look for inside its search column, from contains
    /// filters on the search field.
    public var indexedSubstrings: [String] {
        filters.compactMap { filter in
            if case .contains(let field?, let text) = filter, field == searchField { return TextFolding.fold(text) }
            return nil
        }
    }

    /// The fields the filters and sort keys name, in order, without repeats.
    public var namedFields: [String] {
        var names: [String] = []
        for filter in filters {
            switch filter {
            case .prefix(let field, _), .contains(let field?, _), .compare(let field, _, _): names.append(field)
            case .contains(nil, _): break
            }
        }
        return (names + sort.map(\.field)).uniqued()
    }

    /// Whether `record` passes every filter and the origin filter.
    public func matches(_ record: Record) -> Bool {
        if origin != .all, record.origin.rawValue != origin.rawValue { return false }
        return filters.allSatisfy { Self.matches(record, $0) }
    }

    static func matches(_ record: Record, _ filter: Filter) -> Bool {
        switch filter {
        case .prefix(let field, let text):
            guard let value = Self.text(of: record, field) else { return false }
            return TextFolding.fold(value).hasPrefix(TextFolding.fold(text))
        case .contains(let field?, let text):
            guard let value = Self.text(of: record, field) else { return false }
            return TextFolding.folded(TextFolding.fold(value), contains: TextFolding.fold(text))
        case .contains(nil, let text):
            let needle = TextFolding.fold(text)
            return record.fields.contains { member in
                Self.texts(of: member.value).contains { TextFolding.folded(TextFolding.fold($0), contains: needle) }
            }
        case .compare(let field, let comparison, let expected):
            guard let value = Self.value(of: record, field) else { return comparison == .notEqual }
            let order: Int
            if let number = value.numberValue, let expectedNumber = Double(expected.trimmingSpaces) {
                order = number < expectedNumber ? -1 : (number > expectedNumber ? 1 : 0)
            } else if let text = value.textValue {
                order = text < expected ? -1 : (text > expected ? 1 : 0)
            } else if case .array(let items) = value, comparison == .equal || comparison == .notEqual {
                let found = items.contains { $0.textValue == expected }
                return comparison == .equal ? found : !found
            } else {
                return comparison == .notEqual
            }
            switch comparison {
            case .equal: return order == 0
            case .notEqual: return order != 0
            case .less: return order < 0
            case .greater: return order > 0
            case .lessOrEqual: return order <= 0
            case .greaterOrEqual: return order >= 0
            }
        }
    }

    /// A field's value; `key` and `origin` name the record's own key and origin unless a
    /// field has that name.
    public static func value(of record: Record, _ field: String) -> JSONValue? {
        if let value = record.fields[field] { return value }
        switch field {
        case "key": return .string(record.key)
        case "origin": return .string(record.origin.rawValue)
        default: return nil
        }
    }

    static func text(of record: Record, _ field: String) -> String? {
        value(of: record, field).map { texts(of: $0).joined(separator: " ") }
    }

    static func texts(of value: JSONValue) -> [String] {
        switch value {
        case .array(let items): items.compactMap(\.textValue)
        default: value.textValue.map { [$0] } ?? []
        }
    }

    /// Applies the sort (when there is one), then offset and limit, to records already
    /// filtered and in merged order.
    public func sortAndSlice(_ records: [Record]) -> [Record] {
        var result = records
        if !sort.isEmpty {
            result = records.enumerated().sorted { left, right in
                for key in sort {
                    switch (Self.value(of: left.element, key.field), Self.value(of: right.element, key.field)) {
                    case (nil, nil): continue
                    // Records without the field come last, descending too.
                    case (nil, _?): return false
                    case (_?, nil): return true
                    case (let a?, let b?):
                        let order = Self.compareForSort(a, b)
                        if order != 0 { return key.descending ? order > 0 : order < 0 }
                    }
                }
                return left.offset < right.offset
            }.map(\.element)
        }
        let start = min(offset, result.count)
        let end = limit.map { min(result.count, start + $0) } ?? result.count
        return Array(result[start..<end])
    }

    /// Numbers by value; otherwise text by Unicode order.
    static func compareForSort(_ left: JSONValue, _ right: JSONValue) -> Int {
        if let a = left.numberValue, let b = right.numberValue {
            return a < b ? -1 : (a > b ? 1 : 0)
        }
        let a = texts(of: left).joined(separator: " ")
        let b = texts(of: right).joined(separator: " ")
        return a < b ? -1 : (a > b ? 1 : 0)
    }

    /// Runs the query over records in merged order, stopping early when no sort is needed.
    /// Backends that cannot do better use this.
    public func evaluate(mergedRecords: some Sequence<Record>) -> [Record] {
        if sort.isEmpty {
            var result: [Record] = []
            var skipped = 0
            for record in mergedRecords where matches(record) {
                if skipped < offset { skipped += 1; continue }
                if let limit, result.count >= limit { break }
                result.append(record)
            }
            return result
        }
        return sortAndSlice(mergedRecords.filter(matches))
    }
}
