/// Reads source definitions from YAML text, checking them against the schema.
///
/// Every problem becomes a `Diagnostic` with its `file:line:column`. A source with errors is
/// left out of the result; the other sources of the same file still load.
public struct DefinitionLoader: Sendable {
    /// The outcome of loading one file.
    public struct Result: Sendable {
        /// The valid sources, in file order.
        public var sources: [SourceDefinition]
        /// Every error and warning found.
        public var diagnostics: [Diagnostic]
        /// Where each source left out because of its errors is defined, by name.
        public var rejected: [String: SourceLocation] = [:]
        /// True when at least one diagnostic is an error.
        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    static let sourceKeys = [
        "title", "description", "homepage", "kind", "decoder", "request", "parameters", "secrets",
        "records", "paginate", "key", "fields", "search", "image", "columns", "insert", "ttl",
    ]
    static let remoteOnlyKeys = ["request", "paginate", "records", "ttl", "parameters", "secrets", "decoder"]
    static let requestKeys = ["url", "method", "query", "headers", "body"]
    static let parameterKeys = ["type", "required", "default", "description"]
    static let fieldKeys = ["path", "type"]
    static let insertKeys = ["required"]
    static let paginationKeys: [String: [String]] = [
        "none": ["style"],
        "offset": ["style", "limit", "limit_param", "offset_param", "total", "max_pages"],
        "page": ["style", "page_param", "first_page", "size", "size_param", "pages", "max_pages"],
        "next": ["style", "next", "max_pages"],
    ]
    /// The most pages a sync fetches unless a definition says otherwise.
    public static let defaultMaximumPages = 10_000

    /// Decoder names a definition may use; nil skips the check.
    public var knownDecoders: Set<String>?

    /// Creates a loader that checks `decoder:` names against `knownDecoders` when given.
    public init(knownDecoders: Set<String>? = nil) {
        self.knownDecoders = knownDecoders
    }

    /// Loads the definitions in `text`, naming `file` in diagnostics.
    public func load(text: String, file: String) -> Result {
        let source = SourceText(file: file, text: text)
        let root: YAMLNode?
        do {
            root = try YAMLParser(source: source).parseDocument()
        } catch {
            return Result(sources: [], diagnostics: error.diagnostics)
        }
        guard let root, !root.isNull else {
            return Result(sources: [], diagnostics: [])
        }
        let reader = SchemaReader(source: source)
        var sources: [SourceDefinition] = []
        var rejected: [String: SourceLocation] = [:]
        for entry in reader.orderedMapping(root, context: "a definition file (source names at the top level)") {
            let before = reader.diagnostics.filter { $0.severity == .error }.count
            let definition = loadSource(name: entry.key, nameNode: entry.keyNode, node: entry.value, reader: reader)
            let after = reader.diagnostics.filter { $0.severity == .error }.count
            if let definition, after == before {
                sources.append(definition)
            } else {
                rejected[entry.key] = entry.keyNode.location
            }
        }
        return Result(sources: sources, diagnostics: reader.diagnostics, rejected: rejected)
    }

    private func loadSource(name: String, nameNode: YAMLNode, node: YAMLNode, reader: SchemaReader) -> SourceDefinition? {
        if !Self.isValidSourceName(name) {
            reader.error("source name '\(name)' must start with a lowercase letter and hold only lowercase letters, digits, '-' and '_'", at: nameNode)
        }
        let context = "source '\(name)'"
        guard let members = reader.mapping(node, allowed: Self.sourceKeys, context: context) else { return nil }
        var definition = SourceDefinition(name: name, title: name, kind: .remote, location: nameNode.location)
        if let node = members["title"]?.value, let title = reader.string(node, "'title'") { definition.title = title }
        if let node = members["description"]?.value { definition.description = reader.string(node, "'description'") }
        if let node = members["homepage"]?.value { definition.homepage = reader.string(node, "'homepage'") }
        if let node = members["kind"]?.value, let kind = reader.choice(node, "'kind'", as: SourceDefinition.Kind.self) {
            definition.kind = kind
        }
        if let node = members["decoder"]?.value, let decoder = reader.string(node, "'decoder'") {
            if let knownDecoders, !knownDecoders.contains(decoder) {
                let known = knownDecoders.sorted().joined(separator: ", ")
                reader.error("unknown decoder '\(decoder)'\(Suggestion.didYouMean(decoder, among: knownDecoders)) (known decoders: \(known); omit 'decoder' for the generic field mapper)", at: node)
            }
            definition.decoder = decoder
        }
        if definition.kind == .local {
            for key in Self.remoteOnlyKeys {
                if let member = members[key] {
                    reader.error("'\(key)' does not apply to a local source ('\(name)' has 'kind: local')", at: member.key)
                }
            }
        } else {
            if let node = members["parameters"]?.value { definition.parameters = loadParameters(node, context: context, reader: reader) }
            if let node = members["secrets"]?.value { definition.secrets = loadSecrets(node, context: context, reader: reader) }
            if let node = members["request"]?.value { definition.request = loadRequest(node, context: context, definition: definition, reader: reader) }
            if let node = members["records"]?.value, let path = reader.path(node, "'records'") { definition.records = path }
            if let node = members["paginate"]?.value, let pagination = loadPagination(node, context: context, reader: reader) {
                definition.pagination = pagination
            }
            if members["request"] == nil {
                reader.error("source '\(name)' has no 'request'; a remote source needs one (or add 'kind: local' for a collection without an endpoint)", at: nameNode)
            }
        }
        if let node = members["fields"]?.value { definition.fields = loadFields(node, context: context, reader: reader) }
        if let node = members["key"]?.value, let key = reader.stringList(node, "'key'") {
            definition.key = key
            checkFieldNames(key, what: "'key'", at: node, definition: definition, reader: reader)
        }
        if let node = members["search"]?.value, let search = reader.string(node, "'search'") {
            definition.search = search
            checkFieldNames([search], what: "'search'", at: node, definition: definition, reader: reader)
        }
        if let node = members["image"]?.value, let image = reader.string(node, "'image'") {
            definition.image = image
            checkFieldNames([image], what: "'image'", at: node, definition: definition, reader: reader)
        } else if definition.fields.contains(where: { $0.name == "image" }) {
            definition.image = "image"
        }
        if let node = members["columns"]?.value, let columns = reader.stringList(node, "'columns'") {
            definition.columns = columns
            checkFieldNames(columns, what: "'columns'", at: node, definition: definition, reader: reader)
        }
        if let node = members["insert"]?.value, let insert = reader.mapping(node, allowed: Self.insertKeys, context: "'insert' of \(context)") {
            if let requiredNode = insert["required"]?.value, let required = reader.stringList(requiredNode, "'insert.required'") {
                definition.insert.required = required
                checkFieldNames(required, what: "'insert.required'", at: requiredNode, definition: definition, reader: reader)
            }
        }
        if definition.kind == .remote, let node = members["ttl"]?.value, let text = reader.string(node, "'ttl'") {
            if let ttl = TimeToLive(text) {
                definition.ttl = ttl
            } else {
                reader.error("'ttl' must be a duration like 30s, 15m, 12h, 1d or 1w; found '\(text)'", at: node)
            }
        }
        return definition
    }

    /// Field names must be declared when the definition maps fields itself; a decoder plug-in
    /// produces fields of its own, so they are not checked then.
    private func checkFieldNames(_ names: [String], what: String, at node: YAMLNode, definition: SourceDefinition, reader: SchemaReader) {
        guard definition.decoder == nil else { return }
        let declared = definition.fields.map(\.name)
        for name in names where !declared.contains(name) {
            reader.error("\(what) names the field '\(name)', which 'fields' does not declare\(Suggestion.didYouMean(name, among: declared))", at: node)
        }
    }

    private func loadParameters(_ node: YAMLNode, context: String, reader: SchemaReader) -> [ParameterDefinition] {
        var parameters: [ParameterDefinition] = []
        for entry in reader.orderedMapping(node, context: "'parameters' of \(context)") {
            let what = "parameter '\(entry.key)'"
            guard let members = reader.mapping(entry.value, allowed: Self.parameterKeys, context: "\(what) of \(context)") else { continue }
            var parameter = ParameterDefinition(name: entry.key, type: .string, required: false)
            if let typeNode = members["type"]?.value, let type = reader.choice(typeNode, "the type of \(what)", as: ParameterDefinition.ValueType.self) {
                parameter.type = type
            }
            if let requiredNode = members["required"]?.value, let required = reader.boolean(requiredNode, "'required' of \(what)") {
                parameter.required = required
            }
            if let descriptionNode = members["description"]?.value { parameter.description = reader.string(descriptionNode, "'description' of \(what)") }
            if let defaultNode = members["default"]?.value, let value = reader.string(defaultNode, "the default of \(what)") {
                if parameter.accepts(value) {
                    parameter.defaultValue = value
                } else {
                    reader.error("the default of \(what) must be of type \(parameter.type.rawValue), found '\(value)'", at: defaultNode)
                }
                if parameter.required {
                    reader.warning("\(what) has a default, so 'required: true' has no effect", at: defaultNode)
                }
            }
            parameters.append(parameter)
        }
        return parameters
    }

    private func loadSecrets(_ node: YAMLNode, context: String, reader: SchemaReader) -> [SecretDefinition] {
        reader.orderedMapping(node, context: "'secrets' of \(context)").map { entry in
            SecretDefinition(variable: entry.key, help: entry.value.isNull ? nil : reader.string(entry.value, "the help for secret '\(entry.key)'"))
        }
    }

    private func loadRequest(_ node: YAMLNode, context: String, definition: SourceDefinition, reader: SchemaReader) -> RequestTemplate? {
        let requestContext = "'request' of \(context)"
        guard let members = reader.mapping(node, allowed: Self.requestKeys, context: requestContext) else { return nil }
        guard let urlNode = members["url"]?.value else {
            reader.error("\(requestContext) has no 'url'", at: node)
            return nil
        }
        let check = { (template: Template?, node: YAMLNode) -> Template? in
            guard let template else { return nil }
            for name in template.parameterNames where definition.parameter(named: name) == nil {
                reader.error("'${params.\(name)}' refers to a parameter that 'parameters' does not declare\(Suggestion.didYouMean(name, among: definition.parameters.map(\.name)))", at: node)
            }
            return template
        }
        guard let url = check(reader.template(urlNode, "'url'"), urlNode) else { return nil }
        var request = RequestTemplate(url: url)
        if let methodNode = members["method"]?.value, let method = reader.choice(methodNode, "'method'", as: RequestTemplate.Method.self) {
            request.method = method
        }
        if let queryNode = members["query"]?.value {
            for entry in reader.orderedMapping(queryNode, context: "'query' of \(context)") {
                if let value = check(reader.template(entry.value, "query item '\(entry.key)'"), entry.value) {
                    request.query.append((entry.key, value))
                }
            }
        }
        if let headersNode = members["headers"]?.value {
            for entry in reader.orderedMapping(headersNode, context: "'headers' of \(context)") {
                if let value = check(reader.template(entry.value, "header '\(entry.key)'"), entry.value) {
                    request.headers.append((entry.key, value))
                }
            }
        }
        if let bodyNode = members["body"]?.value {
            request.body = check(reader.template(bodyNode, "'body'"), bodyNode)
            if request.method == .get {
                reader.error("a request 'body' needs 'method: POST'", at: bodyNode)
            }
        }
        return request
    }

    private func loadPagination(_ node: YAMLNode, context: String, reader: SchemaReader) -> Pagination? {
        let paginationContext = "'paginate' of \(context)"
        guard let members = reader.mapping(node, allowed: Self.paginationKeys.values.flatMap { $0 }.uniqued(), context: paginationContext) else { return nil }
        guard let styleNode = members["style"]?.value else {
            reader.error("\(paginationContext) has no 'style' (one of none, offset, page, next)", at: node)
            return nil
        }
        guard let style = reader.string(styleNode, "'style'") else { return nil }
        guard let allowed = Self.paginationKeys[style] else {
            let styles = ["none", "offset", "page", "next"]
            reader.error("'style' must be one of \(styles.joined(separator: ", ")); found '\(style)'\(Suggestion.didYouMean(style, among: styles))", at: styleNode)
            return nil
        }
        for (key, member) in members where !allowed.contains(key) {
            reader.error("'\(key)' does not apply to \(style) pagination (it takes \(allowed.filter { $0 != "style" }.joined(separator: ", ")))", at: member.key)
        }
        let maximumPages = members["max_pages"].flatMap { reader.integer($0.value, "'max_pages'", minimum: 1) } ?? Self.defaultMaximumPages
        let text = { (key: String, fallback: String) -> String in
            members[key].flatMap { reader.string($0.value, "'\(key)'") } ?? fallback
        }
        switch style {
        case "offset":
            guard let limitNode = members["limit"]?.value else {
                reader.error("offset pagination needs 'limit' (records a page)", at: node)
                return nil
            }
            guard let limit = reader.integer(limitNode, "'limit'", minimum: 1) else { return nil }
            return .offset(OffsetPagination(
                limit: limit, limitParameter: text("limit_param", "limit"), offsetParameter: text("offset_param", "offset"),
                total: members["total"].flatMap { reader.path($0.value, "'total'") }, maximumPages: maximumPages))
        case "page":
            return .page(PagePagination(
                pageParameter: text("page_param", "page"),
                firstPage: members["first_page"].flatMap { reader.integer($0.value, "'first_page'", minimum: 0) } ?? 1,
                size: members["size"].flatMap { reader.integer($0.value, "'size'", minimum: 1) },
                sizeParameter: members["size_param"].flatMap { reader.string($0.value, "'size_param'") },
                totalPages: members["pages"].flatMap { reader.path($0.value, "'pages'") },
                maximumPages: maximumPages))
        case "next":
            guard let nextNode = members["next"]?.value else {
                reader.error("next pagination needs 'next' (where the next page's URL is)", at: node)
                return nil
            }
            guard let next = reader.path(nextNode, "'next'") else { return nil }
            return .next(NextPagination(next: next, maximumPages: maximumPages))
        default:
            return Pagination.none
        }
    }

    private func loadFields(_ node: YAMLNode, context: String, reader: SchemaReader) -> [FieldMapping] {
        if case .sequence(let items) = node.content {
            return items.compactMap { item in
                guard let name = reader.string(item, "each item of 'fields'") else { return nil }
                guard case .success(let path) = RecordPath.parse(name) else {
                    reader.error("'\(name)' is not a valid field name", at: item)
                    return nil
                }
                return FieldMapping(name: name, path: path)
            }
        }
        var fields: [FieldMapping] = []
        for entry in reader.orderedMapping(node, context: "'fields' of \(context)") {
            let what = "field '\(entry.key)'"
            if case .mapping = entry.value.content {
                guard let members = reader.mapping(entry.value, allowed: Self.fieldKeys, context: "\(what) of \(context)") else { continue }
                let path = members["path"].flatMap { reader.path($0.value, "the path of \(what)") }
                    ?? (try? RecordPath.parse(entry.key).get()) ?? .root
                let type = members["type"].flatMap { reader.choice($0.value, "the type of \(what)", as: FieldMapping.FieldType.self) }
                fields.append(FieldMapping(name: entry.key, path: path, type: type))
            } else if let path = reader.path(entry.value, "the path of \(what)") {
                fields.append(FieldMapping(name: entry.key, path: path))
            }
        }
        return fields
    }

    /// Whether `name` can name a source.
    public static func isValidSourceName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
    }
}

extension Sequence where Element: Hashable {
    /// The elements in order, without repeats.
    package func uniqued() -> [Element] {
        var seen: Set<Element> = []
        return filter { seen.insert($0).inserted }
    }
}
