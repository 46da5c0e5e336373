/// A message about a definition file, with a severity and a location, printed the way
/// compilers print them:
///
/// ```
/// sources.yaml:12:3: error: unknown key 'pagniate' in source 'zoo'; did you mean 'paginate'?
///   pagniate: { style: offset }
///   ^
/// ```
public struct Diagnostic: Error, Sendable, Hashable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// The definition cannot be used.
        case error
        /// The definition works, but probably not as intended.
        case warning
        /// Extra information attached to another diagnostic.
        case note
    }

    /// How serious this is.
    public var severity: Severity
    /// What went wrong, in one sentence.
    public var message: String
    /// Where, when the problem has a place in a file.
    public var location: SourceLocation?
    /// The text of the line at `location`, shown under the message with a caret.
    public var sourceLine: String?

    /// Creates a diagnostic.
    public init(_ severity: Severity, _ message: String, at location: SourceLocation? = nil, sourceLine: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.sourceLine = sourceLine
    }

    /// An error at a location, taking the source line from `source`.
    package static func error(_ message: String, at location: SourceLocation, in source: SourceText) -> Diagnostic {
        Diagnostic(.error, message, at: location, sourceLine: source.line(location.line))
    }

    /// The full text: the `file:line:column: severity: message` header, then the source line and
    /// a caret under the column when both are known.
    public var description: String {
        var header = ""
        if let location { header = "\(location): " }
        header += "\(severity.rawValue): \(message)"
        guard let location, let sourceLine else { return header }
        let prefix = sourceLine.unicodeScalars.prefix(max(0, location.column - 1))
        var caretIndent = ""
        for scalar in prefix {
            caretIndent += scalar == "\t" ? "\t" : String(repeating: " ", count: DisplayWidth.of(scalar))
        }
        return header + "\n" + sourceLine + "\n" + caretIndent + "^"
    }
}

/// One or more diagnostics thrown together, for example every problem found in a file.
public struct DiagnosticsError: Error, Sendable, CustomStringConvertible {
    /// The diagnostics, in file order.
    public var diagnostics: [Diagnostic]

    /// Wraps a list of diagnostics.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    /// Every diagnostic, one after the other.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
