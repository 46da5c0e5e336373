#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The text form used for matching: Unicode compatibility-normalised (NFKC, so full-width
/// `ＡＢＣ` and half-width `ABC` are one) and case-folded.
public enum TextFolding {
    /// The folded form of `text`.
    public static func fold(_ text: String) -> String {
        var hasWideForms = false
        for scalar in text.unicodeScalars where !isNormalizationStable(scalar) {
            guard narrowForm(of: scalar) != nil else {
                return lowercase(CompatibilityNormalization.normalize(text))
            }
            hasWideForms = true
        }
        guard hasWideForms else { return lowercase(text) }
        var narrowed = String.UnicodeScalarView()
        for scalar in text.unicodeScalars { narrowed.append(narrowForm(of: scalar) ?? scalar) }
        return lowercase(String(narrowed))
    }

    /// `text.lowercased()`, built as UTF-8 in one pass, and `text` itself when nothing in it
    /// has case (most CJK text): the standard library appends scalar by scalar, which made
    /// folding most of the time of a scan.
    static func lowercase(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: changesWhenLowercased) else { return text }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            } else if changesWhenLowercased(scalar) {
                bytes.append(contentsOf: scalar.properties.lowercaseMapping.utf8)
            } else {
                bytes.append(contentsOf: UTF8.encode(scalar)!)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether NFKC leaves `scalar` as it is, and cannot combine it with a neighbour that is
    /// also stable: ASCII, Latin-1 letters, the common CJK, kana and Hangul blocks, and
    /// punctuation without compatibility mappings. Text made only of these (and of the wide
    /// forms `narrowForm(of:)` maps) skips the full normalisation, which costs reading the
    /// decomposition table in a short process and most of the folding time in a sync or a
    /// scan. (Half-width kana, combining marks, jamo and other compatibility characters take
    /// the full path.)
    static func isNormalizationStable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x7F, 0xB0, 0xB7, 0xC0...0xFF: true
        case 0x2013, 0x2014, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022: true
        case 0x3001...0x3002, 0x3008...0x3011: true
        case 0x3041...0x3096, 0x30A1...0x30FA, 0x30FC: true
        case 0x3400...0x4DBF, 0x4E00...0x9FFF: true
        case 0xAC00...0xD7A3: true
        default: false
        }
    }

    /// Whether lowercasing changes `scalar`. Looking the property up is slow, so it is only
    /// looked up in the blocks that have cased letters at all (checked against the standard
    /// library for every scalar below U+20000 in the tests).
    static func changesWhenLowercased(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x41...0x5A: true
        case 0x00...0xBF: false
        case 0xC0...0x058F, 0x10A0...0x10FF, 0x13A0...0x13FF, 0x1C80...0x1CBF, 0x1E00...0x1FFF, 0x2100...0x2184,
             0x24B6...0x24CF, 0x2C00...0x2D2F, 0xA640...0xA7FF, 0xAB70...0xABBF, 0xFF21...0xFF3A, 0x10400...:
            scalar.properties.changesWhenLowercased
        default: false
        }
    }

    /// What NFKC makes of a full-width ASCII form (U+FF01-FF5E, such as the `，` and `（）`
    /// of Chinese text) or the ideographic space: the ASCII character; nil for any other
    /// scalar.
    static func narrowForm(of scalar: Unicode.Scalar) -> Unicode.Scalar? {
        switch scalar.value {
        case 0xFF01...0xFF5E: Unicode.Scalar(scalar.value - 0xFEE0)
        case 0x3000: " "
        default: nil
        }
    }

    /// Whether the folded `text` contains the folded `part`, compared as UTF-8 bytes (which
    /// can only match on scalar boundaries), the way the SQLite store's `instr` and full-text
    /// index compare. (`String.contains` from Foundation goes through NSString and was a
    /// hundred times slower in a scan.)
    public static func folded(_ text: String, contains part: String) -> Bool {
        var text = text
        var part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard let first = needle.first else { return true }
                guard needle.count <= haystack.count else { return false }
                var start = 0
                while start + needle.count <= haystack.count {
                    if haystack[start] == first, haystack[start..<start + needle.count].elementsEqual(needle) { return true }
                    start += 1
                }
                return false
            }
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
