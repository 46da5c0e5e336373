/// Unicode compatibility normalisation (NFKC) without Foundation, whose version
/// (`precomposedStringWithCompatibilityMapping`) costs every process that links it a few
/// milliseconds of start-up.
///
/// NFKC is the canonical composition of the compatibility decomposition. Replacing each
/// scalar by its full compatibility decomposition (from `decompositions`, generated from
/// Foundation's own by `Scripts/generate-compatibility-decompositions.swift`) and handing the
/// result to the standard library's canonical normalisation (NFC, which decomposes, reorders
/// combining marks and composes) gives exactly that.
enum CompatibilityNormalization {
    /// The NFKC form of `text`.
    static func normalize(_ text: String) -> String {
        var decomposed = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let mapping = table[scalar.value] {
                decomposed.append(contentsOf: mapping)
            } else {
                decomposed.append(scalar)
            }
        }
        return String(decoding: String(decomposed)._nfcCodeUnits, as: UTF8.self)
    }

    /// `decompositions` read into a table, on first use.
    private static let table: [UInt32: [Unicode.Scalar]] = {
        var table: [UInt32: [Unicode.Scalar]] = [:]
        table.reserveCapacity(4096)
        var entry: [Unicode.Scalar] = []
        for scalar in decompositions.unicodeScalars {
            if scalar != "\0" {
                entry.append(scalar)
            } else if let key = entry.first {
                table[key.value] = Array(entry.dropFirst())
                entry.removeAll(keepingCapacity: true)
            }
        }
        return table
    }()
}
