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

    @Test func keysRecognisedFromTheObjectBeforeAreTheKeysWritten() throws {
        let text = #"[{"ab":1,"b":2},{"b":3,"ab":4},{"a\u0062":5,"abc":6,"a":7},{"":8,"ab":{"ab":9,"b":[{"b":10}]}},{"ab":11,"b\"":12}]"#
        let value = try Array(text.utf8).withUnsafeBufferPointer { try JSONParser.parseKeepingElementText(buffer: $0).0 }
        #expect(value == (try JSONParser.parse(text)))
        let keys = value.arrayValue?.map { $0.objectValue?.keys ?? [] }
        #expect(keys == [["ab", "b"], ["b", "ab"], ["ab", "abc", "a"], ["", "ab"], ["ab", "b\""]])
        #expect(value[3]?["ab"]?.objectValue?.keys == ["ab", "b"])
        #expect(value[3]?["ab"]?["b"]?[0]?.objectValue?.keys == ["b"])
        #expect(JSONWriter.string(value) == text.replacingOccurrences(of: #"a\u0062"#, with: "ab"))
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

@Suite struct JSONStringScanTests {
    static func plainScan(_ bytes: [UInt8], from start: Int) -> Int {
        bytes[start...].firstIndex { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 } ?? bytes.count
    }

    /// The block-at-a-time scan must find exactly what a byte-by-byte scan finds, for every
    /// byte value at every position of a block and across block boundaries.
    @Test func findsTheSameByteAsAPlainScan() {
        var mismatches = 0
        for value in 0...255 {
            for position in 0..<36 {
                var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 37)
                bytes[3] = 0xE5
                bytes[position] = UInt8(value)
                for start in [0, 1, 5, 17] where start <= position {
                    let fast = bytes.withUnsafeBufferPointer { JSONStringScan.firstSpecialByte(in: $0, from: start) }
                    if fast != Self.plainScan(bytes, from: start) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    /// Every length and start, with special bytes before the start (which the scan of the
    /// last bytes may read again) and after it, among bytes next to the special values.
    @Test func findsTheSameByteForEveryLengthAndStart() {
        let values: [UInt8] = [0x00, 0x1F, 0x20, 0x22, 0x23, 0x5C, 0x5D, 0x7F, 0x80, 0xE5, 0xFF]
        var mismatches = 0
        for length in 0...40 {
            for start in 0...length {
                for before in values where start > 0 {
                    for after in values {
                        for position in Set([start, start + (length - start) * 2 / 3, length - 1]) where position >= start && position < length {
                            var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                            bytes[start - 1] = before
                            bytes[position] = after
                            let fast = bytes.withUnsafeBufferPointer { JSONStringScan.firstSpecialByte(in: $0, from: start) }
                            if fast != Self.plainScan(bytes, from: start) { mismatches += 1 }
                        }
                    }
                }
                let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                if plain.withUnsafeBufferPointer({ JSONStringScan.firstSpecialByte(in: $0, from: start) }) != length { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    /// The writer scans each string as a buffer of its own, so specials at its very end and
    /// strings shorter than a block take the scan's last-bytes paths.
    @Test func writesEscapesAtEveryPositionOfShortAndLongStrings() throws {
        func reference(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case "\r": out += "\\r"
                case "\t": out += "\\t"
                case _ where scalar.value < 0x20: out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        for length in 0...40 {
            for position in 0..<max(length, 1) {
                for special in ["\"", "\\", "\n", "\u{01}", "貓"] {
                    var characters = Array(repeating: "a", count: length)
                    if position < length { characters[position] = special }
                    let text = characters.joined()
                    let written = JSONWriter.string(.string(text))
                    #expect(written == reference(text))
                    #expect(try JSONParser.parse(written) == .string(text))
                }
            }
        }
    }

    @Test func documentsLargerThanTheExpectedSizeAreWrittenWhole() throws {
        let document = JSONValue.object(JSONObject((0..<500).map { ("key \($0)", .string(String(repeating: "大貓熊 \"\($0)\"", count: 3))) }))
        let bytes = JSONWriter.bytes(document, expectedSize: 1)
        #expect(try JSONParser.parse(bytes) == document)
        #expect(JSONWriter.bytes(.string("end\n"), expectedSize: 1) == Array("\"end\\n\"".utf8))
    }

    @Test func stringsWithEscapesAndControlCharactersStillRoundTrip() throws {
        let text = "大貓熊 \"quoted\" back\\slash\ttab\u{01}end and a long plain tail of text"
        let encoded = JSONWriter.string(.string(text))
        #expect(encoded.contains("\\u0001"))
        #expect(try JSONParser.parse(encoded) == .string(text))
        #expect(throws: JSONParseError.self) { try JSONParser.parse("\"a\u{01}b\"") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("\"unterminated plain text") }
    }
}

@Suite struct TrimmingTests {
    static let spaces: [Unicode.Scalar] = [
        "\t", "\n", "\u{0B}", "\u{0C}", "\r", " ", "\u{85}", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2005}", "\u{200A}",
        "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{3000}",
    ]

    @Test func everyUnicodeSpaceIsTrimmedAtEitherEnd() {
        for space in Self.spaces {
            let text = String(Character(space))
            #expect((text + "大貓熊").trimmingSpaces == "大貓熊", "leading U+\(String(space.value, radix: 16))")
            #expect(("大貓熊" + text).trimmingSpaces == "大貓熊", "trailing U+\(String(space.value, radix: 16))")
        }
    }

    @Test func everyWhiteSpaceScalarIsTrimmedEvenBesideAnASCIILetter() {
        let whiteSpace = (0...0x10FFFF).compactMap(Unicode.Scalar.init).filter(\.properties.isWhitespace)
        #expect(whiteSpace.count == 25)
        for space in whiteSpace {
            let text = String(Character(space))
            #expect((text + "x").trimmingSpaces == "x", "leading U+\(String(space.value, radix: 16))")
            #expect(("x" + text).trimmingSpaces == "x", "trailing U+\(String(space.value, radix: 16))")
        }
    }

    @Test func textWithoutSpacesAtItsEndsIsUnchanged() {
        for text in ["大貓熊", "a", "é", "\u{2003}x\u{2003}".trimmingSpaces, "x\u{200B}", "\u{3001}"] {
            #expect(text.trimmingSpaces == text)
        }
        #expect("   ".trimmingSpaces == "")
    }
}

extension TrimmingTests {
    @Test func trimmingKeepsCombiningMarksAndInnerSpaces() {
        #expect(" e\u{301} x\u{3000}".trimmingSpaces == "e\u{301} x")
        #expect("\u{3000}大 貓\u{3000}"[...].trimmingSpaces == "大 貓")
    }
}
