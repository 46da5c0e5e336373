/// A string from a definition that may refer to the environment and to user parameters:
///
/// - `${NAME}`: the environment variable `NAME`; an error when it is unset.
/// - `${NAME:-default}`: `NAME`, or `default` when it is unset or empty.
/// - `${params.NAME}`: the value of the source's parameter `NAME`.
/// - `$$`: a literal `$`.
///
/// Templates are parsed when a definition loads (so syntax errors point at the file) and
/// rendered when the source is used (so an unset variable only matters for the source that
/// needs it).
public struct Template: Sendable, Hashable, CustomStringConvertible {
    /// A piece of a template.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case environment(name: String, defaultValue: String?)
        case parameter(String)
    }

    /// The pieces in order.
    public let segments: [Segment]
    /// The text as written.
    public let description: String

    /// A template with no references.
    public init(literal text: String) {
        segments = [.literal(text)]
        description = text
    }

    private init(segments: [Segment], description: String) {
        self.segments = segments
        self.description = description
    }

    /// Parses a template, or gives the reason it is malformed.
    public static func parse(_ text: String) -> Result<Template, TemplateSyntaxError> {
        var segments: [Segment] = []
        var literal = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            literal += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            if afterDollar < rest.endIndex, rest[afterDollar] == "$" {
                literal += "$"
                rest = rest[rest.index(after: afterDollar)...]
                continue
            }
            guard afterDollar < rest.endIndex, rest[afterDollar] == "{" else {
                literal += "$"
                rest = rest[afterDollar...]
                continue
            }
            guard let close = rest[afterDollar...].firstIndex(of: "}") else {
                return .failure(TemplateSyntaxError("'${' without a closing '}' in \"\(text)\""))
            }
            let body = rest[rest.index(after: afterDollar)..<close]
            if !literal.isEmpty { segments.append(.literal(literal)); literal = "" }
            switch parseReference(body) {
            case .success(let segment): segments.append(segment)
            case .failure(let error): return .failure(error)
            }
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty || segments.isEmpty { segments.append(.literal(literal)) }
        return .success(Template(segments: segments, description: text))
    }

    private static func parseReference(_ body: Substring) -> Result<Segment, TemplateSyntaxError> {
        let name: Substring
        var defaultValue: String?
        if let separator = body.firstRange(of: ":-") {
            name = body[..<separator.lowerBound]
            defaultValue = String(body[separator.upperBound...])
        } else {
            name = body
        }
        if name.hasPrefix("params.") {
            let parameter = name.dropFirst("params.".count)
            guard isIdentifier(parameter), defaultValue == nil else {
                return .failure(TemplateSyntaxError("'${\(body)}' is not a parameter reference like ${params.lat}"))
            }
            return .success(.parameter(String(parameter)))
        }
        guard isIdentifier(name) else {
            return .failure(TemplateSyntaxError("'${\(body)}' is not a variable reference like ${NAME} or ${NAME:-default}"))
        }
        return .success(.environment(name: String(name), defaultValue: defaultValue))
    }

    private static func isIdentifier(_ text: Substring) -> Bool {
        guard let first = text.first, first == "_" || (first.isASCII && first.isLetter) else { return false }
        return text.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
    }

    /// The environment variables this template reads.
    public var environmentVariables: [String] {
        segments.compactMap { if case .environment(let name, _) = $0 { name } else { nil } }
    }

    /// The parameters this template reads.
    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The text with every reference replaced. A missing variable or parameter is reported
    /// through `missing`, which names what is missing; the template renders nothing for it.
    public func render(
        environment: [String: String], parameters: [String: String],
        missing: (Segment) throws -> Void
    ) rethrows -> String {
        var output = ""
        for segment in segments {
            switch segment {
            case .literal(let text):
                output += text
            case .environment(let name, let defaultValue):
                if let value = environment[name], !(value.isEmpty && defaultValue != nil) {
                    output += value
                } else if let defaultValue {
                    output += defaultValue
                } else {
                    try missing(segment)
                }
            case .parameter(let name):
                if let value = parameters[name] { output += value } else { try missing(segment) }
            }
        }
        return output
    }
}

/// Why a template could not be parsed.
public struct TemplateSyntaxError: Error, Sendable {
    /// The reason, in words.
    public let reason: String
    init(_ reason: String) { self.reason = reason }
}

extension Template {
    /// The text for showing to a person: variables that are set are filled in, except those
    /// in `secrets`, which show as `<secret>`; unset variables and parameters stay as written.
    public func preview(environment: [String: String], secrets: Set<String>) -> String {
        segments.map { segment in
            switch segment {
            case .literal(let text):
                return text
            case .environment(let name, let defaultValue):
                if secrets.contains(name) { return environment[name] == nil ? "${\(name)}" : "<secret>" }
                if let value = environment[name], !(value.isEmpty && defaultValue != nil) { return value }
                return defaultValue ?? "${\(name)}"
            case .parameter(let name):
                return "${params.\(name)}"
            }
        }.joined()
    }
}
