/// A plain-text table whose columns line up on a terminal, counting East Asian wide
/// characters as two columns. When the table is wider than `maximumWidth`, the widest columns
/// are narrowed and their cells cut with `…`.
public struct TextTable: Sendable {
    /// Column titles.
    public var headers: [String]
    /// Rows of cells, one per column.
    public var rows: [[String]]

    /// Creates a table.
    public init(headers: [String], rows: [[String]] = []) {
        self.headers = headers
        self.rows = rows
    }

    /// The table as lines of text, each at most `maximumWidth` columns when given.
    public func render(maximumWidth: Int? = nil) -> String {
        let separator = "  "
        let cells = ([headers] + rows).map { row in row.map(Self.singleLine) }
        var widths = headers.indices.map { column in cells.map { DisplayWidth.of($0[column]) }.max() ?? 0 }
        if let maximumWidth {
            let available = maximumWidth - separator.count * max(0, widths.count - 1)
            let minimum = 4
            while widths.reduce(0, +) > available, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }), widths[widest] > minimum {
                widths[widest] -= 1
            }
        }
        var lines: [String] = []
        for row in cells {
            var line = ""
            for (column, cell) in row.enumerated() {
                let fitted = Self.fit(cell, width: widths[column])
                let isLast = column == row.count - 1
                line += fitted
                if !isLast {
                    line += String(repeating: " ", count: widths[column] - DisplayWidth.of(fitted)) + separator
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// Line breaks and tabs become spaces so a cell stays on one line.
    static func singleLine(_ text: String) -> String {
        var result = ""
        var lastWasSpace = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" || scalar == "\n" || scalar == "\t" {
                if !lastWasSpace { result.unicodeScalars.append(" ") }
                lastWasSpace = true
            } else {
                result.unicodeScalars.append(scalar)
                lastWasSpace = false
            }
        }
        return result
    }

    /// `text` cut to `width` columns, ending in `…` when cut.
    public static func fit(_ text: String, width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let characterWidth = DisplayWidth.of(String(character))
            if used + characterWidth > width - 1 { break }
            result.append(character)
            used += characterWidth
        }
        return result + "…"
    }
}
