@testable import AggCore
import Testing

@Suite struct RemoteRecordTests {
    @Test func aRecordKeptAsTextReadsBackTheSameValues() throws {
        let raw = try JSONParser.parse(#"{"A_Name_Ch": " 大貓熊 ", "_id": 1}"#)
        var record = RemoteRecord(key: "1", fields: ["name": "大貓熊", "id": "1"], raw: raw, searchText: "大貓熊")
        let original = record
        record.keepAsText(rawText: Array(#"{"A_Name_Ch": " 大貓熊 ", "_id": 1}"#.utf8))
        #expect(record.fieldsText.map { String(decoding: $0, as: UTF8.self) } == #"{"name":"大貓熊","id":"1"}"#)
        #expect(record.fields == original.fields)
        #expect(record.raw == raw)
        #expect(record == original)
    }

    @Test func changingAValueDropsItsStaleText() {
        var record = RemoteRecord(key: "1", fields: ["name": "a"], raw: .null)
        record.keepAsText(rawText: Array("null".utf8))
        record.fields["name"] = "b"
        #expect(record.fieldsText == nil)
        #expect(record.fields["name"] == "b")
        record.raw = .string("new")
        #expect(record.rawText == nil)
        #expect(record.raw == .string("new"))
    }

    @Test func withoutRawTextTheRawValueIsKept() {
        var record = RemoteRecord(key: "1", fields: [:], raw: .int(5))
        record.keepAsText(rawText: nil)
        #expect(record.rawText == nil)
        #expect(record.raw == .int(5))
    }
}
