@testable import AggCore
import Testing

@Suite struct TextTableTests {
    @Test func wideCharactersLineUp() {
        let table = TextTable(headers: ["NAME", "PLACE"], rows: [["大貓熊", "新光特展館"], ["koala", "澳洲動物區"]])
        #expect(table.render() == "NAME    PLACE\n大貓熊  新光特展館\nkoala   澳洲動物區")
    }

    @Test func longCellsAreCutToFitTheWidth() {
        let table = TextTable(headers: ["A", "B"], rows: [["short", "a very long description that does not fit"]])
        let lines = table.render(maximumWidth: 24).split(separator: "\n")
        #expect(lines.allSatisfy { DisplayWidth.of($0) <= 24 })
        #expect(lines[1].hasSuffix("…"))
    }

    @Test func lineBreaksStayInTheirCell() {
        #expect(TextTable(headers: ["A"], rows: [["one\r\ntwo"]]).render() == "A\none two")
    }

    @Test func displayWidths() {
        #expect(DisplayWidth.of("大貓熊") == 6)
        #expect(DisplayWidth.of("ｱ") == 1)
        #expect(DisplayWidth.of("Ａ") == 2)
        #expect(DisplayWidth.of("é") == 1)
    }
}
