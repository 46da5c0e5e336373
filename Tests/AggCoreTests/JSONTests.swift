@testable import AggCore
import Testing

@Suite struct JSONTests {
    @Test func parsesAndWritesBack() throws {
        let text = #"{"a":[1,2.5,-3e2,true,false,null],"b":"x\"y\\z\n\u00e9\ud83d\ude00","c":{}}"#
        let value = try JSONParser.parse(text)
        #expect(value["a"]?[1] == .double(2.5))
        #expect(value["a"]?[2] == .double(-300))
        #expect(value["b"]?.stringValue == "x\"y\\z\né😀")
        #expect(JSONWriter.string(value) == #"{"a":[1,2.5,-300,true,false,null],"b":"x\"y\\z\né😀","c":{}}"#)
    }

    @Test func skipsAByteOrderMark() throws {
        let value = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8))
        #expect(value == .array([.int(1)]))
    }

    @Test func truncatedInputSaysWhere() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"result":{"results":[{"a":1},"#) }
        #expect(error?.description == "invalid JSON at byte 30: unexpected end of input (truncated?)")
        #expect(throws: JSONParseError.self) { try JSONParser.parse("<html>error</html>") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("[1] x") }
    }

    @Test func lenientNumbers() {
        #expect(JSONValue.string("95578").intValue == 95578)
        #expect(JSONValue.string(" 121.5832").numberValue == 121.5832)
        #expect(JSONValue.double(3).intValue == 3)
        #expect(JSONValue.string("abc").intValue == nil)
    }

    @Test func recordPaths() throws {
        let document = try JSONParser.parse(#"{"result":{"results":[{"type":["Grass","Poison"]}]}}"#)
        #expect(try RecordPath.parse("result.results[0].type[1]").get().value(in: document) == .string("Poison"))
        #expect(try RecordPath.parse("result.missing").get().value(in: document) == nil)
        #expect(try RecordPath.parse("$").get().value(in: document) == document)
        #expect((try? RecordPath.parse("a..b").get()) == nil)
        #expect((try? RecordPath.parse("a[x]").get()) == nil)
    }
}
