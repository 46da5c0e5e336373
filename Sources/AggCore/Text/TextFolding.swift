import Foundation

/// The text form used for matching: Unicode compatibility-normalised (NFKC, so full-width
/// `ＡＢＣ` and half-width `ABC` are one) and case-folded.
public enum TextFolding {
    /// The folded form of `text`.
    public static func fold(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.precomposedStringWithCompatibilityMapping.lowercased()
    }

    /// The folded text of `field` in `fields`, for search indexes; nil when the field is
    /// missing.
    public static func searchText(of fields: JSONObject, field: String?) -> String? {
        guard let field, let value = fields[field] else { return nil }
        let text = RecordQuery.texts(of: value).joined(separator: " ")
        return text.isEmpty ? nil : fold(text)
    }
}
