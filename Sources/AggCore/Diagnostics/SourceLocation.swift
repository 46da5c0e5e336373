/// A position in a text file: 1-based line and column (columns count Unicode scalars).
public struct SourceLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file as the user named it.
    public var file: String
    /// 1-based line number.
    public var line: Int
    /// 1-based column, counted in Unicode scalars.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
}
