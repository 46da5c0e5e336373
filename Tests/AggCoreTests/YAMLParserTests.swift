@testable import AggCore
import Testing

@Suite struct YAMLParserTests {
    func parse(_ text: String) throws -> YAMLNode? {
        try YAMLParser(source: SourceText(file: "test.yaml", text: text)).parseDocument()
    }

    @Test func nodesKeepTheirLineAndColumn() throws {
        let root = try #require(try parse("zoo:\n  title: Zoo\n  ttl: 1d\n"))
        guard case .mapping(let pairs) = root.content, case .mapping(let inner) = pairs[0].value.content else {
            Issue.record("expected nested mappings")
            return
        }
        #expect(pairs[0].key.location == SourceLocation(file: "test.yaml", line: 1, column: 1))
        #expect(inner[1].key.scalar == "ttl")
        #expect(inner[1].key.location == SourceLocation(file: "test.yaml", line: 3, column: 3))
        #expect(inner[1].value.location == SourceLocation(file: "test.yaml", line: 3, column: 8))
    }

    @Test func scalarStyleTellsPlainFromQuoted() throws {
        let root = try #require(try parse("a: 3\nb: \"3\"\nc: '3'\n"))
        guard case .mapping(let pairs) = root.content else { Issue.record("expected a mapping"); return }
        #expect(pairs[0].value.kindDescription == "an integer")
        #expect(pairs[1].value.kindDescription == "a string")
        #expect(pairs[2].value.kindDescription == "a string")
    }

    @Test func syntaxErrorsPrintLocationSourceLineAndCaret() throws {
        let error = #expect(throws: DiagnosticsError.self) { try parse("zoo:\n  title: [unclosed\n  ttl: 1d\n") }
        let text = try #require(error).description
        #expect(text.hasPrefix("test.yaml:3:6: error: YAML syntax: did not find expected ',' or ']' while parsing a flow sequence"))
        #expect(text.hasSuffix("\n  ttl: 1d\n     ^"))
    }

    @Test func anchorsAndAliasesExpand() throws {
        let root = try #require(try parse("base: &q { scope: all }\nzoo: *q\n"))
        guard case .mapping(let pairs) = root.content, case .mapping(let aliased) = pairs[1].value.content else {
            Issue.record("expected the alias to expand to a mapping")
            return
        }
        #expect(aliased.first?.key.scalar == "scope")
        #expect(aliased.first?.value.scalar == "all")
    }

    @Test func billionLaughsFailsFast() throws {
        var text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            text += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        let error = #expect(throws: DiagnosticsError.self) { try parse(text) }
        let message = try #require(error).description
        #expect(message.contains("expands to more than 100000 nodes through aliases"))
    }

    @Test func anAliasInsideItsOwnAnchorIsRefused() throws {
        let error = #expect(throws: DiagnosticsError.self) { try parse("a: &a [1, *a]\n") }
        #expect(try #require(error).description.contains("refers to the node that contains it"))
    }

    @Test func aSecondDocumentIsAnError() throws {
        let error = #expect(throws: DiagnosticsError.self) { try parse("a: 1\n---\nb: 2\n") }
        #expect(try #require(error).description.contains("test.yaml:2:1: error: a definition file holds one YAML document"))
    }

    @Test func emptyFileHasNoDocument() throws {
        #expect(try parse("") == nil)
        #expect(try parse("# only a comment\n") == nil)
    }

    @Test func caretAccountsForWideCharacters() {
        let diagnostic = Diagnostic(.error, "bad", at: SourceLocation(file: "f", line: 1, column: 5), sourceLine: "大貓熊: x")
        #expect(diagnostic.description == "f:1:5: error: bad\n大貓熊: x\n       ^")
    }
}
