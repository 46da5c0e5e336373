import AggCore

/// The text of `agg sources show`: a definition as agg resolved it.
struct SourceDescription {
    let source: RegisteredSource
    let environment: [String: String]

    var text: String {
        let definition = source.definition
        var lines: [(String, String)] = []
        let secrets = Set(definition.secrets.map(\.variable))
        lines.append(("defined at", "\(definition.location) (\(source.file.origin == .builtin ? "built-in" : source.file.origin.rawValue))"))
        for overridden in source.overrides { lines.append(("overrides", overridden.description)) }
        lines.append(("kind", definition.kind.rawValue))
        lines.append(("decoder", definition.decoder ?? "generic (field mapping)"))
        if let description = definition.description { lines.append(("description", description)) }
        if let homepage = definition.homepage { lines.append(("homepage", homepage)) }
        if let request = definition.request {
            var url = request.url.preview(environment: environment, secrets: secrets)
            let query = request.query.map { "\($0.name)=\($0.value.preview(environment: environment, secrets: secrets))" }
            if !query.isEmpty { url += "?" + query.joined(separator: "&") }
            lines.append(("request", "\(request.method.rawValue) \(url)"))
            for header in request.headers {
                lines.append(("header", "\(header.name): \(header.value.preview(environment: environment, secrets: secrets))"))
            }
        }
        for parameter in definition.parameters {
            var text = "\(parameter.name) (\(parameter.type.rawValue)"
            if parameter.required { text += ", required" }
            if let value = parameter.defaultValue { text += ", default \(value)" }
            text += ")"
            if let description = parameter.description { text += " — \(description)" }
            lines.append(("parameter", text))
        }
        for secret in definition.secrets {
            let state = environment[secret.variable].map { $0.isEmpty ? "set but empty" : "set" } ?? "not set"
            lines.append(("secret", "\(secret.variable) (\(state))\(secret.help.map { " — \($0)" } ?? "")"))
        }
        if definition.kind == .remote {
            lines.append(("records", definition.records.description))
            lines.append(("paginate", Self.describe(definition.pagination)))
        }
        if !definition.key.isEmpty { lines.append(("key", definition.key.joined(separator: ", "))) }
        for field in definition.fields {
            lines.append(("field", "\(field.name) ← \(field.path)\(field.type.map { " as \($0.rawValue)" } ?? "")"))
        }
        if let search = definition.search { lines.append(("search", search)) }
        if let image = definition.image { lines.append(("image", image)) }
        if !definition.insert.required.isEmpty { lines.append(("insert needs", definition.insert.required.joined(separator: ", "))) }
        if let ttl = definition.ttl { lines.append(("ttl", ttl.description)) }
        let width = lines.map { $0.0.count }.max() ?? 0
        let body = lines.map { "  " + $0.0 + String(repeating: " ", count: width - $0.0.count) + "  " + $0.1 }
        return (["\(definition.name) — \(definition.title)"] + body).joined(separator: "\n")
    }

    static func describe(_ pagination: Pagination) -> String {
        switch pagination {
        case .none:
            return "none (one document)"
        case .offset(let offset):
            var text = "offset: \(offset.limitParameter)=\(offset.limit), \(offset.offsetParameter)=0,\(offset.limit),…"
            if let total = offset.total { text += "; total at \(total)" }
            return text + "; at most \(offset.maximumPages) pages"
        case .page(let page):
            var text = "page: \(page.pageParameter)=\(page.firstPage),\(page.firstPage + 1),…"
            if let size = page.size, let parameter = page.sizeParameter { text += "; \(parameter)=\(size)" }
            if let total = page.totalPages { text += "; pages at \(total)" }
            return text + "; at most \(page.maximumPages) page\(page.maximumPages == 1 ? "" : "s")"
        case .next(let next):
            return "next: the next URL at \(next.next); at most \(next.maximumPages) pages"
        }
    }
}
