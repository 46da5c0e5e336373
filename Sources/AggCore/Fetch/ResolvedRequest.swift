/// A source's request with every template rendered: what the fetch engine sends.
public struct ResolvedRequest: Sendable, Hashable {
    /// The full URL of the first page, query included.
    public var url: String
    /// GET or POST.
    public var method: RequestTemplate.Method
    /// Header lines, in order.
    public var headers: [String]
    /// The POST body.
    public var body: String?
    /// The values of secrets used, to be redacted from every message and log line.
    public var secretValues: [String]
    /// The parameter values the request was made with (defaults included), sorted by name:
    /// the identity of a parameterised collection.
    public var parameters: [String: String]

    /// `text` with every secret value replaced by `<redacted>`.
    public func redact(_ text: String) -> String {
        Redaction.redact(text, secrets: secretValues)
    }
}

/// Something the environment or the command line must supply for a source is missing or
/// wrong: an unset variable, a missing secret, a bad parameter.
public struct ConfigurationError: Error, Sendable, CustomStringConvertible {
    /// What kind of problem this is.
    public enum Kind: Sendable, Hashable {
        /// An environment variable without a default is unset.
        case missingVariable(String)
        /// A secret is unset.
        case missingSecret(String)
        /// A required parameter was not given.
        case missingParameter(String)
        /// A parameter the source does not declare.
        case unknownParameter(String)
        /// A parameter value of the wrong type.
        case invalidParameter(String)
    }

    /// What kind of problem.
    public var kind: Kind
    /// The whole message.
    public var description: String
}

extension SourceDefinition {
    /// Renders the request for `parameters` (as given with `--param`) and `environment`.
    /// Unset variables, missing or unknown parameters and wrongly typed values throw a
    /// `ConfigurationError` that names the variable or parameter and this source.
    public func resolveRequest(
        environment: [String: String], parameters given: [String: String] = [:]
    ) throws(ConfigurationError) -> ResolvedRequest {
        guard let request else {
            throw ConfigurationError(kind: .missingVariable(""), description: "source '\(name)' is local; it has no request to send")
        }
        // Parameters first: they are what the user just typed.
        let values = try resolveParameters(given)
        if let secret = secrets.first(where: { environment[$0.variable]?.isEmpty ?? true }) { throw missing(secret) }
        let secretNames = Set(secrets.map(\.variable))
        var secretValues: [String] = []
        func render(_ template: Template, _ place: String) throws(ConfigurationError) -> String {
            do {
                return try template.render(environment: environment, parameters: values) { segment in
                    guard case .environment(let variable, _) = segment else { return }
                    if let secret = secrets.first(where: { $0.variable == variable }) { throw missing(secret) }
                    throw ConfigurationError(
                        kind: .missingVariable(variable),
                        description: "source '\(name)' needs the environment variable \(variable) (used in its \(place)), and it is not set")
                }
            } catch let error as ConfigurationError {
                throw error
            } catch {
                preconditionFailure("Template.render rethrows only what its closure throws")
            }
        }
        for template in request.templates {
            for variable in template.environmentVariables where secretNames.contains(variable) {
                if let value = environment[variable] { secretValues.append(value) }
            }
        }
        var url = try render(request.url, "request url")
        var query: [String] = []
        for item in request.query {
            let value = try render(item.value, "query item '\(item.name)'")
            query.append(URLEncoding.queryComponent(item.name) + "=" + URLEncoding.queryComponent(value))
        }
        if !query.isEmpty { url += (url.contains("?") ? "&" : "?") + query.joined(separator: "&") }
        var headers: [String] = []
        for header in request.headers {
            headers.append("\(header.name): \(try render(header.value, "header '\(header.name)'"))")
        }
        let body = try request.body.map { (template) throws(ConfigurationError) -> String in try render(template, "request body") }
        return ResolvedRequest(url: url, method: request.method, headers: headers, body: body, secretValues: secretValues, parameters: values)
    }

    /// The error for `secret` being unset, with where to get a value.
    private func missing(_ secret: SecretDefinition) -> ConfigurationError {
        var message = "source '\(name)' needs the secret \(secret.variable) in the environment, and it is not set"
        if let help = secret.help { message += "; \(help)" }
        return ConfigurationError(kind: .missingSecret(secret.variable), description: message)
    }

    /// The parameter values to use: the given ones checked against the declarations, plus
    /// defaults.
    public func resolveParameters(_ given: [String: String]) throws(ConfigurationError) -> [String: String] {
        var values: [String: String] = [:]
        for (key, value) in given {
            guard let parameter = parameter(named: key) else {
                let declared = parameters.map(\.name)
                let known = declared.isEmpty ? "it takes no parameters" : "it takes \(declared.joined(separator: ", "))"
                throw ConfigurationError(
                    kind: .unknownParameter(key),
                    description: "source '\(name)' has no parameter '\(key)'\(Suggestion.didYouMean(key, among: declared)) (\(known))")
            }
            guard parameter.accepts(value) else {
                throw ConfigurationError(
                    kind: .invalidParameter(key),
                    description: "parameter '\(key)' of source '\(name)' must be \(parameter.type.article) \(parameter.type.rawValue); found '\(value)'")
            }
            values[key] = value
        }
        for parameter in parameters where values[parameter.name] == nil {
            if let value = parameter.defaultValue {
                values[parameter.name] = value
            } else if parameter.required {
                var message = "source '\(name)' needs --param \(parameter.name)=… (\(parameter.type.rawValue)"
                if let description = parameter.description { message += ": \(description)" }
                throw ConfigurationError(kind: .missingParameter(parameter.name), description: message + ")")
            }
        }
        return values
    }
}

extension ParameterDefinition.ValueType {
    var article: String { self == .integer ? "an" : "a" }
}

/// Percent-encoding for URLs built from definitions.
public enum URLEncoding {
    /// `text` with `%XX` sequences decoded (invalid ones are kept as they are).
    public static func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            let high = iterator.next(), low = iterator.next()
            if let high, let low, let value = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) {
                bytes.append(value)
            } else {
                bytes.append(byte)
                if let high { bytes.append(high) }
                if let low { bytes.append(low) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with everything but RFC 3986 unreserved characters percent-encoded.
    public static func queryComponent(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                output += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return output
    }
}

extension String {
    /// Every occurrence of `target` replaced with `replacement`; with `wholeWordsOnly`, only
    /// those with no letter or digit right before or after them.
    package func replacingAll(_ target: String, with replacement: String, wholeWordsOnly: Bool = false) -> String {
        guard !target.isEmpty else { return self }
        func isWordCharacter(_ character: Character?) -> Bool { character.map { $0.isLetter || $0.isNumber } ?? false }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            if wholeWordsOnly && (isWordCharacter(self[..<range.lowerBound].last) || isWordCharacter(self[range.upperBound...].first)) {
                result += rest[..<range.upperBound]
            } else {
                result += rest[..<range.lowerBound]
                result += replacement
            }
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
