extension Aggregator {
    /// The field names of `collection`'s source: those its definition names (fields, key,
    /// search, image, columns, required on insert), `key` and `origin`, and those its records
    /// have — every local record's, then remote ones', reading at most `sample` records in
    /// all. `isComplete` tells whether every record was read, so that a name missing from
    /// `names` is on no record at all.
    ///
    /// For explaining an empty or odd answer ("no record has a field 'nmae'; did you mean
    /// 'name'?"): it reads records, so call it when a query named a field its answer lacks,
    /// not on every query.
    public func fieldNames(in collection: CollectionID, sample: Int = 1000) async throws -> (names: Set<String>, isComplete: Bool) {
        let definition = try source(named: collection.source)
        var names: Set<String> = ["key", "origin"]
        names.formUnion(definition.fields.map(\.name) + definition.key + definition.columns + definition.insert.required)
        names.formUnion([definition.search, definition.image].compactMap { $0 })
        var read = 0
        try await store.forEachRecord(matching: RecordQuery(collection: collection, limit: sample + 1)) { record in
            read += 1
            if read <= sample { names.formUnion(record.fields.keys) }
        }
        return (names, read <= sample)
    }
}
