@testable import AggCore
import Foundation
import Testing

@Suite struct RecordOutputTests {
    static let definition = SourceDefinition(name: "zoo", title: "Zoo", kind: .remote, location: SourceLocation(file: "s.yaml", line: 1, column: 1))
    static let fields: JSONObject = [
        "name": "大貓熊 \"Yuan Zai\"\n", "weight": 120, "ratio": 0.25, "tags": ["a", "b/c"], "nested": ["on": true, "off": .null],
    ]

    static func record() -> Record {
        Record(source: "zoo", key: "1", origin: .local, sequence: 7, fields: fields, raw: ["_id": 1, "A_Name": "大貓熊"],
               image: .url("http://example.com/p.jpg"))
    }

    /// A record read with its stored field text gives the same line as one encoded afresh.
    @Test func storedFieldTextGivesTheLinesEncodingGives() {
        var kept = Self.record()
        kept.keepFieldsText(JSONWriter.bytes(.object(Self.fields)))
        for includeRaw in [false, true] {
            let formatter = RecordFormatter(definition: Self.definition, includeRaw: includeRaw)
            #expect(formatter.jsonLine(kept) == formatter.jsonLine(Self.record()))
            #expect(formatter.jsonLine(kept) == JSONWriter.bytes(formatter.json(Self.record())))
        }
    }

    /// The stored text is copied as it is, not encoded again, unless fields are picked.
    @Test func storedFieldTextIsCopiedUnlessFieldsArePicked() throws {
        var kept = Self.record()
        kept.keepFieldsText(Array(#"{"name": "as stored"}"#.utf8))
        let line = String(decoding: RecordFormatter(definition: Self.definition).jsonLine(kept), as: UTF8.self)
        #expect(line.contains(#""fields":{"name": "as stored"}}"#))
        let picked = String(decoding: RecordFormatter(definition: Self.definition, fields: ["weight"]).jsonLine(kept), as: UTF8.self)
        #expect(picked.hasSuffix(#""fields":{"weight":120}}"#))
    }

    /// Every format shows a record's key and origin, so picking them does not repeat them,
    /// unless the record has fields by those names.
    @Test func pickingKeyOrOriginDoesNotRepeatThem() throws {
        let formatter = RecordFormatter(definition: Self.definition, fields: ["key", "name", "origin"])
        let record = Self.record()
        #expect(formatter.tableColumns(for: [record]) == ["name"])
        #expect(formatter.csv([record]).hasPrefix("key,origin,name\r\n1,local,"))
        let line = String(decoding: formatter.jsonLine(record), as: UTF8.self)
        #expect(line.hasSuffix(#""fields":{"name":"大貓熊 \"Yuan Zai\"\n"}}"#))
        var withKeyField = record
        withKeyField.fields["key"] = "K-1"
        #expect(formatter.tableColumns(for: [record, withKeyField]) == ["key", "name"])
        #expect(String(decoding: formatter.jsonLine(withKeyField), as: UTF8.self).contains(#""fields":{"key":"K-1","#))
    }

    @Test func changingTheFieldsDropsTheirTextAndTheTextIsNotPartOfTheValue() {
        var kept = Self.record()
        kept.keepFieldsText(JSONWriter.bytes(.object(Self.fields)))
        #expect(kept == Self.record())
        #expect(kept.hashValue == Self.record().hashValue)
        kept.fields["weight"] = 121
        #expect(kept.fieldsText == nil)
    }
}
