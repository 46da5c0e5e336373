/// The text of a file being parsed, with its lines at hand for diagnostics.
package struct SourceText: Sendable {
    /// The file name used in locations.
    package let file: String
    /// The whole text.
    package let text: String

    /// Wraps a file's text.
    package init(file: String, text: String) {
        self.file = file
        self.text = text
    }

    /// The 1-based line `number` without its line break, or nil when out of range. Found by
    /// scanning the text: diagnostics are rare, and splitting every file up front would cost
    /// every start-up.
    package func line(_ number: Int) -> String? {
        guard number >= 1 else { return nil }
        let bytes = text.utf8
        var start = bytes.startIndex
        for _ in 1..<number {
            guard let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            start = bytes.index(after: newline)
        }
        var end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        if end > start, bytes[bytes.index(before: end)] == UInt8(ascii: "\r") { end = bytes.index(before: end) }
        return String(text[start..<end])
    }

    /// A location in this file.
    package func location(line: Int, column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }
}
