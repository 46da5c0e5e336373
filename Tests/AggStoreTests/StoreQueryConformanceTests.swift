import AggCore
import AggTestSupport
import Foundation
import Testing

/// Every backend answers the same query with the same records.
@Suite struct StoreQueryConformanceTests {
    static let zoo = CollectionID(source: "zoo")

    func populated(_ backend: Backend) async throws -> (any RecordStore, TemporaryDirectory) {
        let (store, folder) = try backend.makeStore()
        let animals: [(String, String, Int, String)] = [
            ("1", "大貓熊", 120, "2021-02-24T12:56:50+08:00"), ("2", "大象", 5000, "2020-06-08T16:13:08+08:00"),
            ("3", "Koala", 12, "2019-07-01T17:07:32+08:00"), ("4", "ｋｏａｌａ bear", 14, "2022-01-01T00:00:00+08:00"),
            ("5", "小貓熊", 5, "2015-07-20T18:25:56+08:00"),
        ]
        let records = animals.map { key, name, weight, updated in
            remote(key, name, extra: [("weight", .int(weight)), ("updated", .string(updated)), ("types", .array([.string("Bear")]))])
        }
        try await store.replaceSnapshot(of: Self.zoo, with: batches([records])) { state($0) }
        _ = try await store.insertLocal(source: "zoo", draft: LocalRecordDraft(fields: ["name": "大冠鷲", "weight": 2], searchText: TextFolding.fold("大冠鷲")), blob: nil)
        _ = try await store.insertLocal(source: "zoo", draft: LocalRecordDraft(fields: ["name": "石虎", "weight": 4], searchText: TextFolding.fold("石虎")), blob: nil)
        return (store, folder)
    }

    /// The keys `records(matching:)` returns; every query also checks that
    /// `forEachRecord(matching:_:)` delivers the same records in the same order.
    func keys(_ backend: Backend, _ configure: (inout RecordQuery) -> Void) async throws -> [String] {
        let (store, folder) = try await populated(backend)
        defer { folder.remove() }
        var query = RecordQuery(collection: Self.zoo, searchField: "name")
        configure(&query)
        let collected = try await store.records(matching: query)
        var streamed: [Record] = []
        try await store.forEachRecord(matching: query) { streamed.append($0) }
        #expect(streamed == collected)
        return collected.map(\.key)
    }

    @Test(arguments: Backend.allCases)
    func prefixFindsCJKAndFoldsWidthAndCase(backend: Backend) async throws {
        #expect(try await keys(backend) { $0.filters = [.prefix(field: "name", text: "大")] } == ["local-1", "1", "2"])
        #expect(try await keys(backend) { $0.filters = [.prefix(field: "name", text: "KOALA")] } == ["3", "4"])
        #expect(try await keys(backend) { $0.filters = [.prefix(field: "name", text: "ｋｏ")] } == ["3", "4"])
    }

    @Test(arguments: Backend.allCases)
    func containsLooksInsideAnyFieldOrOne(backend: Backend) async throws {
        #expect(try await keys(backend) { $0.filters = [.contains(field: "name", text: "貓熊")] } == ["1", "5"])
        #expect(try await keys(backend) { $0.filters = [.contains(field: nil, text: "bear")] } == ["1", "2", "3", "4", "5"])
        #expect(try await keys(backend) { $0.filters = [.contains(field: "name", text: "OALA")] } == ["3", "4"])
        #expect(try await keys(backend) { $0.filters = [.contains(field: "name", text: "ｏａｌａ ｂ")] } == ["4"])
        #expect(try await keys(backend) { $0.filters = [.contains(field: "name", text: "冠鷲")] } == ["local-1"])
    }

    @Test(arguments: Backend.allCases)
    func comparisonsOnNumbersDatesAndText(backend: Backend) async throws {
        #expect(try await keys(backend) { $0.filters = [.compare(field: "weight", .greaterOrEqual, value: "120")] } == ["1", "2"])
        #expect(try await keys(backend) { $0.filters = [.compare(field: "weight", .less, value: "5")] } == ["local-2", "local-1"])
        #expect(try await keys(backend) { $0.filters = [.compare(field: "updated", .less, value: "2020-01-01")] } == ["3", "5"])
        #expect(try await keys(backend) { $0.filters = [.compare(field: "name", .equal, value: "大象")] } == ["2"])
        #expect(try await keys(backend) { $0.filters = [.compare(field: "types", .equal, value: "Bear"), .compare(field: "weight", .notEqual, value: "12")] } == ["1", "2", "4", "5"])
    }

    @Test(arguments: Backend.allCases)
    func sortLimitOffsetAndOrigin(backend: Backend) async throws {
        #expect(try await keys(backend) { $0.sort = [.init(field: "weight", descending: true)] } == ["2", "1", "4", "3", "5", "local-2", "local-1"])
        #expect(try await keys(backend) { $0.sort = [.init(field: "weight")]; $0.limit = 2; $0.offset = 1 } == ["local-2", "5"])
        // Records without the field come last in both directions.
        #expect(try await keys(backend) { $0.sort = [.init(field: "updated", descending: true)] } == ["4", "1", "2", "3", "5", "local-2", "local-1"])
        #expect(try await keys(backend) { $0.sort = [.init(field: "updated")] } == ["5", "3", "2", "1", "4", "local-2", "local-1"])
        #expect(try await keys(backend) { $0.limit = 3 } == ["local-2", "local-1", "1"])
        #expect(try await keys(backend) { $0.offset = 5 } == ["4", "5"])
        #expect(try await keys(backend) { $0.origin = .local } == ["local-2", "local-1"])
        #expect(try await keys(backend) { $0.origin = .remote; $0.limit = 1 } == ["1"])
        #expect(try await keys(backend) { $0.limit = 0 } == [])
    }
}
