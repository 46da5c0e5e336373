/// The text of a file being parsed, with its lines at hand for diagnostics.
package struct SourceText: Sendable {
    /// The file name used in locations.
    package let file: String
    /// The whole text.
    package let text: String
    private let lines: [Substring]

    /// Wraps a file's text.
    package init(file: String, text: String) {
        self.file = file
        self.text = text
        self.lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The 1-based line `number` without its line break, or nil when out of range.
    package func line(_ number: Int) -> String? {
        guard number >= 1, number <= lines.count else { return nil }
        var line = lines[number - 1]
        if line.hasSuffix("\r") { line = line.dropLast() }
        return String(line)
    }

    /// A location in this file.
    package func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }
}
