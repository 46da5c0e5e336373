/// Reads YAML nodes against an expected shape, collecting diagnostics instead of stopping at
/// the first one, so a user sees every problem in a file at once.
package final class SchemaReader {
    package let source: SourceText
    package private(set) var diagnostics: [Diagnostic] = []

    package init(source: SourceText) {
        self.source = source
    }

    /// Records an error at `node`.
    package func error(_ message: String, at node: YAMLNode) {
        diagnostics.append(.error(message, at: node.location, in: source))
    }

    /// Records a warning at `node`.
    package func warning(_ message: String, at node: YAMLNode) {
        diagnostics.append(Diagnostic(.warning, message, at: node.location, sourceLine: source.line(node.location.line)))
    }

    /// The members of a mapping node, keyed by their (string) key. Duplicate keys and keys
    /// outside `allowed` are errors; unknown keys get a "did you mean". Returns nil (after an
    /// error) when the node is not a mapping.
    package func mapping(_ node: YAMLNode, allowed: [String]?, context: String) -> [String: (key: YAMLNode, value: YAMLNode)]? {
        guard case .mapping(let pairs) = node.content else {
            error("\(context) must be a mapping, found \(node.kindDescription)", at: node)
            return nil
        }
        var members: [String: (key: YAMLNode, value: YAMLNode)] = [:]
        for pair in pairs {
            guard let key = pair.key.scalar else {
                error("keys in \(context) must be plain strings, found \(pair.key.kindDescription)", at: pair.key)
                continue
            }
            if let first = members[key] {
                error("duplicate key '\(key)' in \(context) (first defined at line \(first.key.location.line))", at: pair.key)
                continue
            }
            if let allowed, !allowed.contains(key) {
                error("unknown key '\(key)' in \(context)\(Suggestion.didYouMean(key, among: allowed))", at: pair.key)
                continue
            }
            members[key] = pair
        }
        return members
    }

    /// The members of a mapping in document order (for mappings with free keys, such as query
    /// items), reporting duplicates.
    package func orderedMapping(_ node: YAMLNode, context: String) -> [(key: String, keyNode: YAMLNode, value: YAMLNode)] {
        guard case .mapping(let pairs) = node.content else {
            error("\(context) must be a mapping, found \(node.kindDescription)", at: node)
            return []
        }
        var seen: [String: Int] = [:]
        var result: [(key: String, keyNode: YAMLNode, value: YAMLNode)] = []
        for pair in pairs {
            guard let key = pair.key.scalar else {
                error("keys in \(context) must be plain strings, found \(pair.key.kindDescription)", at: pair.key)
                continue
            }
            if let line = seen[key] {
                error("duplicate key '\(key)' in \(context) (first defined at line \(line))", at: pair.key)
                continue
            }
            seen[key] = pair.key.location.line
            result.append((key, pair.key, pair.value))
        }
        return result
    }

    /// A scalar read as a string. Numbers and booleans are accepted as their text; lists,
    /// mappings and null are errors.
    package func string(_ node: YAMLNode, _ what: String) -> String? {
        guard case .scalar(let text, _) = node.content, !node.isNull else {
            error("\(what) must be a string, found \(node.kindDescription)", at: node)
            return nil
        }
        return text
    }

    /// A plain scalar read as an integer.
    package func integer(_ node: YAMLNode, _ what: String, minimum: Int? = nil) -> Int? {
        guard case .scalar(let text, .plain) = node.content, let value = Int(text) else {
            error("\(what) must be an integer, found \(node.kindDescription)", at: node)
            return nil
        }
        if let minimum, value < minimum {
            error("\(what) must be at least \(minimum), found \(value)", at: node)
            return nil
        }
        return value
    }

    /// A plain scalar read as a boolean.
    package func boolean(_ node: YAMLNode, _ what: String) -> Bool? {
        guard case .scalar(let text, .plain) = node.content, let value = Bool(yaml: text) else {
            error("\(what) must be true or false, found \(node.kindDescription)", at: node)
            return nil
        }
        return value
    }

    /// A list of strings; a single string is read as a list of one.
    package func stringList(_ node: YAMLNode, _ what: String) -> [String]? {
        switch node.content {
        case .scalar where !node.isNull:
            return string(node, what).map { [$0] }
        case .sequence(let items):
            let strings = items.compactMap { string($0, "each item of \(what)") }
            return strings.count == items.count ? strings : nil
        default:
            error("\(what) must be a string or a list of strings, found \(node.kindDescription)", at: node)
            return nil
        }
    }

    /// One of a fixed set of words, with a "did you mean" when it is close to one.
    package func choice<T: RawRepresentable & CaseIterable>(_ node: YAMLNode, _ what: String, as: T.Type) -> T? where T.RawValue == String {
        guard let text = string(node, what) else { return nil }
        if let value = T(rawValue: text) { return value }
        let names = T.allCases.map(\.rawValue)
        error("\(what) must be one of \(names.joined(separator: ", ")); found '\(text)'\(Suggestion.didYouMean(text, among: names))", at: node)
        return nil
    }

    /// A record path.
    package func path(_ node: YAMLNode, _ what: String) -> RecordPath? {
        guard let text = string(node, what) else { return nil }
        switch RecordPath.parse(text) {
        case .success(let path): return path
        case .failure(let failure):
            error("\(what): \(failure.reason)", at: node)
            return nil
        }
    }

    /// A template (a string with `${…}` references).
    package func template(_ node: YAMLNode, _ what: String) -> Template? {
        guard let text = string(node, what) else { return nil }
        switch Template.parse(text) {
        case .success(let template): return template
        case .failure(let failure):
            error("\(what): \(failure.reason)", at: node)
            return nil
        }
    }
}
