import AggBuiltins
import AggCore
import AggTestSupport
import Testing

/// `Aggregator.fieldNames(in:sample:)` and `RecordQuery.namedFields`, which explain a query
/// that names a field no record has.
@Suite struct FieldNamesTests {
    @Test func namesComeFromTheDefinitionAndTheRecordsRead() async throws {
        try await withFixtureServer(try FixtureRoutes.dataTaipei(Fixtures.fullZoo)) { server in
            let aggregator = SyncTests.aggregator(server)
            let zoo = CollectionID(source: "zoo")
            let empty = try await aggregator.fieldNames(in: zoo)
            #expect(empty.isComplete)
            #expect(empty.names.isSuperset(of: ["key", "origin", "id", "name", "name_en", "location", "image"]))
            #expect(!empty.names.contains("name_latin"))
            _ = try await aggregator.sync("zoo")
            let all = try await aggregator.fieldNames(in: zoo)
            #expect(all.isComplete)
            #expect(all.names.contains("name_latin"))
            let sampled = try await aggregator.fieldNames(in: zoo, sample: 312)
            #expect(!sampled.isComplete)
            #expect(try await aggregator.fieldNames(in: zoo, sample: 313).isComplete)
        }
    }

    @Test func aQueryNamesTheFieldsOfItsFiltersAndSortKeysOnce() {
        let query = RecordQuery(
            collection: CollectionID(source: "zoo"),
            filters: [.prefix(field: "name", text: "大"), .contains(field: nil, text: "熊"), .contains(field: "location", text: "區"),
                      .compare(field: "id", .greater, value: "3")],
            sort: [.init(field: "name"), .init(field: "name_en", descending: true)])
        #expect(query.namedFields == ["name", "location", "id", "name_en"])
    }
}
