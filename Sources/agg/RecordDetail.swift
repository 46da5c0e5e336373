import AggCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The readable text of `agg show`: a headline, then every field.
struct RecordDetail {
    let record: Record
    let definition: SourceDefinition
    /// The image's file in the cache, when there is one.
    let imagePath: String?
    /// Where the remote data came from, when known: a bundled snapshot was stored, not fetched.
    var provenance: SyncState.Provenance?

    var text: String {
        var lines: [String] = []
        let title = definition.search.flatMap { record.fields[$0]?.textValue } ?? record.key
        lines.append("\(definition.name)/\(record.key) — \(title)")
        if let destination = record.fields["destination"]?.textValue {
            lines.append("→ bound for \(destination)")
        }
        var rows: [(String, String)] = [("origin", record.origin == .local ? "local (yours, #\(record.sequence ?? 0))" : "remote")]
        if let image = record.image { rows.append(("image", RecordFormatter.imageText(image))) }
        if let imagePath { rows.append(("image file", imagePath)) }
        let style = Date.ISO8601FormatStyle(timeZone: .current)
        if case .bundledSnapshot(let recorded)? = provenance, record.origin == .remote {
            rows.append(("recorded", "\(recorded) (the bundled snapshot, not fetched)"))
        } else if let date = record.fetchedAt {
            rows.append(("fetched", date.formatted(style)))
        }
        if let date = record.createdAt { rows.append(("created", date.formatted(style))) }
        if let date = record.updatedAt, date != record.createdAt { rows.append(("updated", date.formatted(style))) }
        for (name, value) in record.fields where !name.hasSuffix("_display") {
            let display = record.fields[name + "_display"].map { " (\(RecordFormatter.text($0)))" } ?? ""
            rows.append((name, RecordFormatter.text(value) + display))
        }
        let width = rows.map { DisplayWidth.of($0.0) }.max() ?? 0
        for (name, value) in rows {
            let padding = String(repeating: " ", count: width - DisplayWidth.of(name))
            let indented = value.replacingAll("\r\n", with: "\n")
                .replacingAll("\n", with: "\n  " + String(repeating: " ", count: width + 2))
            lines.append("  \(name)\(padding)  \(indented)")
        }
        return lines.joined(separator: "\n")
    }
}
