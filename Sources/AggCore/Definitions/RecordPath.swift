/// A path into a JSON document: dot-separated keys with optional array indexes, such as
/// `result.results`, `photos.photo` or `type[0]`. The empty path (or `$`) is the document itself.
public struct RecordPath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path.
    public enum Component: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// The steps, in order.
    public let components: [Component]
    /// The path as written.
    public let description: String

    /// The document itself.
    public static let root = RecordPath(components: [], description: "$")

    private init(components: [Component], description: String) {
        self.components = components
        self.description = description
    }

    /// Parses a path, or returns nil and a reason when it is malformed.
    public static func parse(_ text: String) -> Result<RecordPath, PathSyntaxError> {
        if text.isEmpty || text == "$" { return .success(.root) }
        var components: [Component] = []
        var key = ""
        var characters = Substring(text)
        func flushKey() -> Bool {
            guard !key.isEmpty else { return false }
            components.append(.key(key))
            key = ""
            return true
        }
        var afterIndex = false
        while let character = characters.first {
            characters = characters.dropFirst()
            switch character {
            case ".":
                if !flushKey() && !afterIndex { return .failure(PathSyntaxError("an empty key in path '\(text)'")) }
                afterIndex = false
            case "[":
                _ = flushKey()
                guard let close = characters.firstIndex(of: "]"), let index = Int(characters[..<close]), index >= 0 else {
                    return .failure(PathSyntaxError("'[' in path '\(text)' must hold an index like [0]"))
                }
                components.append(.index(index))
                characters = characters[characters.index(after: close)...]
                afterIndex = true
            case "]":
                return .failure(PathSyntaxError("unbalanced ']' in path '\(text)'"))
            default:
                if afterIndex { return .failure(PathSyntaxError("expected '.' or '[' after an index in path '\(text)'")) }
                key.append(character)
            }
        }
        if !flushKey() && !afterIndex { return .failure(PathSyntaxError("path '\(text)' ends with '.'")) }
        return .success(RecordPath(components: components, description: text))
    }

    /// The value at this path in `document`, or nil when any step is missing.
    public func value(in document: JSONValue) -> JSONValue? {
        var current = document
        for component in components {
            switch component {
            case .key(let key):
                guard let next = current[key] else { return nil }
                current = next
            case .index(let index):
                guard let next = current[index] else { return nil }
                current = next
            }
        }
        return current
    }
}

/// Why a record path could not be parsed.
public struct PathSyntaxError: Error, Sendable {
    /// The reason, in words.
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}
