import Foundation

/// The text form used for matching: Unicode compatibility-normalised (NFKC, so full-width
/// `ＡＢＣ` and half-width `ABC` are one) and case-folded.
public enum TextFolding {
    /// The folded form of `text`.
    public static func fold(_ text: String) -> String {
        if text.unicodeScalars.allSatisfy(isNormalizationStable) { return text.lowercased() }
        return text.precomposedStringWithCompatibilityMapping.lowercased()
    }

    /// Whether NFKC leaves `scalar` as it is, and cannot combine it with a neighbour that is
    /// also stable: ASCII, Latin-1 letters, the common CJK, kana and Hangul blocks, and CJK
    /// punctuation without compatibility mappings. Text made only of these skips the full
    /// normalisation, which costs a library load in a short process and most of the folding
    /// time in a sync. (Full-width forms, half-width kana, combining marks and jamo are not
    /// stable and take the full path.)
    static func isNormalizationStable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x7F, 0xC0...0xFF: true
        case 0x3001...0x3002, 0x3008...0x3011: true
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC: true
        case 0x3400...0x4DBF, 0x4E00...0x9FFF: true
        case 0xAC00...0xD7A3: true
        default: false
        }
    }

    /// The folded text of `field` in `fields`, for search indexes; nil when the field is
    /// missing.
    public static func searchText(of fields: JSONObject, field: String?) -> String? {
        guard let field, let value = fields[field] else { return nil }
        let text = RecordQuery.texts(of: value).joined(separator: " ")
        return text.isEmpty ? nil : fold(text)
    }
}
