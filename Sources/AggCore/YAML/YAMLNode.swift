/// A YAML node with the place it came from. Aliases are resolved: an alias node is the
/// anchored node itself, at the anchor's location.
package struct YAMLNode: Sendable {
    /// How a scalar was written, which decides how it is typed: only plain scalars can be
    /// numbers, booleans or null (`"3"` is a string, `3` is a number).
    package enum ScalarStyle: Sendable, Hashable {
        case plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// The node's content.
    package enum Content: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([(key: YAMLNode, value: YAMLNode)])
    }

    /// The content.
    package var content: Content
    /// Where the node starts.
    package var location: SourceLocation

    package init(_ content: Content, at location: SourceLocation) {
        self.content = content
        self.location = location
    }

    /// The scalar text, when this is a scalar.
    package var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// True for a plain scalar that YAML reads as null (`~`, `null`, or nothing at all).
    package var isNull: Bool {
        if case .scalar(let text, .plain) = content { return ["", "~", "null", "Null", "NULL"].contains(text) }
        return false
    }

    /// What kind of node this is, in words, for "expected X, found Y" messages.
    package var kindDescription: String {
        switch content {
        case .scalar(let text, let style):
            guard style == .plain else { return "a string" }
            if isNull { return "null" }
            if Bool(yaml: text) != nil { return "a boolean" }
            if Int(text) != nil { return "an integer" }
            if Double(text) != nil { return "a number" }
            return "a string"
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        }
    }
}

extension Bool {
    /// YAML 1.2 core-schema booleans.
    package init?(yaml text: String) {
        switch text {
        case "true", "True", "TRUE": self = true
        case "false", "False", "FALSE": self = false
        default: return nil
        }
    }
}
