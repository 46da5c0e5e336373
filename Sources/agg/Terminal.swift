import AggCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the command line knows about where its output goes.
enum Terminal {
    /// True when standard output is a terminal (tables, progress) rather than a pipe or file.
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// True when standard error is a terminal.
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The width of the terminal on standard output, or `COLUMNS`, or nil.
    static var width: Int? {
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = getenv("COLUMNS").map({ String(cString: $0) }), let columns = Int(text), columns > 0 { return columns }
        return nil
    }

    /// True when standard input is a terminal (a person can answer questions).
    static var standardInputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// The width of the terminal on standard error, or nil.
    static var errorWidth: Int? {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return nil
    }

    /// Writes text to standard error, by default as a line.
    static func printError(_ text: String, newline: Bool = true) {
        var line = text
        if newline { line += "\n" }
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }
}

/// Standard output as bytes, buffered here and written to the descriptor 64 KB at a time:
/// for output made record by record, without `print`'s conversion of every argument to text.
/// Its buffer is its own, so a command writes its standard output either here or with
/// `print`, not both.
final class StandardOutputWriter {
    private var buffer: [UInt8] = []

    /// Appends `bytes`, writing the buffer out once it is large.
    func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
        if buffer.count >= 65_536 { flush() }
    }

    /// Writes out what is buffered. A closed pipe ends the output silently (as it ends
    /// `print`'s, by the default SIGPIPE).
    func flush() {
        _ = buffer.withUnsafeBytes { OpenFile.writeAll($0, to: STDOUT_FILENO) }
        buffer.removeAll(keepingCapacity: true)
    }
}
