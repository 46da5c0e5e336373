internal import CYAML

/// Parses YAML text with libyaml into a `YAMLNode` tree.
///
/// One instance owns one libyaml parser handle for its lifetime. Every libyaml failure becomes
/// a `Diagnostic` here and nowhere else. Aliases are expanded into the tree, with a budget: a
/// document whose expansion passes `maximumNodeCount` nodes (the "billion laughs" shape) fails
/// at once instead of filling memory.
package final class YAMLParser {
    /// The most nodes a document may expand to through aliases.
    package static let maximumNodeCount = 100_000
    /// The deepest nesting accepted.
    package static let maximumDepth = 200

    private let source: SourceText
    private var parser = yaml_parser_t()
    private let bytes: [UInt8]

    /// Prepares to parse `source`.
    package init(source: SourceText) throws(DiagnosticsError) {
        self.source = source
        self.bytes = Array(source.text.utf8)
        guard yaml_parser_initialize(&parser) == 1 else {
            throw DiagnosticsError([Diagnostic(.error, "\(source.file): cannot initialise the YAML parser (out of memory)")])
        }
    }

    deinit {
        yaml_parser_delete(&parser)
    }

    /// Parses the single document of the file. An empty file gives nil.
    package func parseDocument() throws(DiagnosticsError) -> YAMLNode? {
        try bytes.withUnsafeBufferPointer { (buffer) throws(DiagnosticsError) -> YAMLNode? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            var document = yaml_document_t()
            guard yaml_parser_load(&parser, &document) == 1 else { throw parserError() }
            defer { yaml_document_delete(&document) }
            guard let root = yaml_document_get_root_node(&document) else { return nil }
            var second = yaml_document_t()
            guard yaml_parser_load(&parser, &second) == 1 else { throw parserError() }
            defer { yaml_document_delete(&second) }
            if yaml_document_get_root_node(&second) != nil {
                let location = source.location(
                    line: Int(second.start_mark.line) + 1, column: Int(second.start_mark.column) + 1)
                throw DiagnosticsError([.error("a definition file holds one YAML document; found a second one", at: location, in: source)])
            }
            let rootIndex = root - document.nodes.start + 1
            return try withUnsafeMutablePointer(to: &document) { (pointer) throws(DiagnosticsError) -> YAMLNode in
                var builder = TreeBuilder(source: source, document: pointer)
                return try builder.node(at: rootIndex, depth: 0)
            }
        }
    }

    private func parserError() -> DiagnosticsError {
        let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
        let mark = parser.problem_mark
        var message = problem
        if let context = parser.context.map({ String(cString: $0) }) {
            message = "\(problem) \(context)"
            let contextMark = parser.context_mark
            if contextMark.line != mark.line || contextMark.column != mark.column {
                message += " (started at line \(contextMark.line + 1), column \(contextMark.column + 1))"
            }
        }
        let location = source.location(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
        return DiagnosticsError([.error("YAML syntax: \(message)", at: location, in: source)])
    }
}

/// Turns libyaml's node table into `YAMLNode`s, sharing expanded aliases (values are
/// copy-on-write, so a repeated subtree costs no memory) while counting the expanded size.
private struct TreeBuilder {
    let source: SourceText
    let document: UnsafeMutablePointer<yaml_document_t>
    /// By node index (1-based, as libyaml counts): the node built so far, and whether it is
    /// being built (an alias to it now would loop).
    var built: [(node: YAMLNode, size: Int)?]
    var inProgress: [Bool]
    var total = 0

    init(source: SourceText, document: UnsafeMutablePointer<yaml_document_t>) {
        self.source = source
        self.document = document
        let count = document.pointee.nodes.top - document.pointee.nodes.start + 1
        built = Array(repeating: nil, count: count)
        inProgress = Array(repeating: false, count: count)
    }

    mutating func node(at index: Int, depth: Int) throws(DiagnosticsError) -> YAMLNode {
        try build(index, depth: depth).node
    }

    private mutating func build(_ index: Int, depth: Int) throws(DiagnosticsError) -> (node: YAMLNode, size: Int) {
        guard let raw = yaml_document_get_node(document, Int32(index)) else {
            throw DiagnosticsError([Diagnostic(.error, "\(source.file): broken YAML node table")])
        }
        let location = source.location(line: Int(raw.pointee.start_mark.line) + 1, column: Int(raw.pointee.start_mark.column) + 1)
        if let done = built[index] {
            try count(done.size, at: location)
            return done
        }
        if inProgress[index] {
            throw DiagnosticsError([.error("an alias refers to the node that contains it, which would never end", at: location, in: source)])
        }
        if depth > YAMLParser.maximumDepth {
            throw DiagnosticsError([.error("nesting deeper than \(YAMLParser.maximumDepth) levels", at: location, in: source)])
        }
        inProgress[index] = true
        defer { inProgress[index] = false }
        var size = 1
        try count(1, at: location)
        let result: YAMLNode
        switch raw.pointee.type {
        case YAML_SCALAR_NODE:
            let scalar = raw.pointee.data.scalar
            let text = scalar.value.map { pointer in
                String(decoding: UnsafeBufferPointer(start: pointer, count: scalar.length), as: UTF8.self)
            } ?? ""
            let style: YAMLNode.ScalarStyle
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            result = YAMLNode(.scalar(text, style), at: location)
        case YAML_SEQUENCE_NODE:
            var items: [YAMLNode] = []
            var item = raw.pointee.data.sequence.items.start
            while item != raw.pointee.data.sequence.items.top {
                let child = try build(Int(item!.pointee), depth: depth + 1)
                items.append(child.node)
                size += child.size
                item = item! + 1
            }
            result = YAMLNode(.sequence(items), at: location)
        case YAML_MAPPING_NODE:
            var pairs: [(key: YAMLNode, value: YAMLNode)] = []
            var pair = raw.pointee.data.mapping.pairs.start
            while pair != raw.pointee.data.mapping.pairs.top {
                let key = try build(Int(pair!.pointee.key), depth: depth + 1)
                let value = try build(Int(pair!.pointee.value), depth: depth + 1)
                pairs.append((key.node, value.node))
                size += key.size + value.size
                pair = pair! + 1
            }
            result = YAMLNode(.mapping(pairs), at: location)
        default:
            result = YAMLNode(.scalar("", .plain), at: location)
        }
        built[index] = (result, size)
        return (result, size)
    }

    private mutating func count(_ nodes: Int, at location: SourceLocation) throws(DiagnosticsError) {
        total += nodes
        if total > YAMLParser.maximumNodeCount {
            throw DiagnosticsError([.error(
                "the document expands to more than \(YAMLParser.maximumNodeCount) nodes through aliases; refusing to expand it (a \"billion laughs\" document?)",
                at: location, in: source)])
        }
    }
}
