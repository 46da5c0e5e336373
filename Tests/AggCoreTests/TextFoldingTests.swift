@testable import AggCore
import Foundation
import Testing

@Suite struct TextFoldingTests {
    @Test func foldsWidthAndCase() {
        #expect(TextFolding.fold("ＡＢＣ Zoo") == "abc zoo")
        #expect(TextFolding.fold("ｶﾞｸ") == "ガク")
        #expect(TextFolding.fold("大貓熊 Panda") == "大貓熊 panda")
    }

    /// The shortcut must give what full normalisation gives, for every scalar it accepts.
    @Test func everyStableScalarIsUnchangedByNormalisation() {
        var wrong: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), TextFolding.isNormalizationStable(scalar) else { continue }
            let text = String(Character(scalar))
            if text.precomposedStringWithCompatibilityMapping.lowercased() != text.lowercased() {
                wrong.append(String(format: "U+%04X", value))
            }
        }
        #expect(wrong.isEmpty, "normalisation changes: \(wrong.prefix(20))")
    }

    /// The wide forms mapped without the full normalisation map as NFKC maps them.
    @Test func wideFormsNarrowAsNormalisationDoes() {
        var wrong: [String] = []
        for value in UInt32(0)...0xFFFF {
            guard let scalar = Unicode.Scalar(value), let narrow = TextFolding.narrowForm(of: scalar) else { continue }
            if String(Character(scalar)).precomposedStringWithCompatibilityMapping != String(Character(narrow)) {
                wrong.append(String(format: "U+%04X", value))
            }
        }
        #expect(wrong.isEmpty, "mapped differently: \(wrong.prefix(20))")
        #expect(TextFolding.fold("大貓熊（Ｐａｎｄａ），展示中") == "大貓熊(panda),展示中")
        #expect(TextFolding.fold("ＡＢＣ\u{3000}ｄ") == "abc d")
    }

    @Test func textWithUnstableScalarsTakesTheFullPath() {
        #expect(!TextFolding.isNormalizationStable("Ａ"))
        #expect(!TextFolding.isNormalizationStable("\u{3099}"))
        #expect(!TextFolding.isNormalizationStable("\u{3000}"))
        #expect(TextFolding.fold("カ\u{3099}") == "ガ")
    }
}

extension TextFoldingTests {
    @Test func containsComparesFoldedBytes() {
        #expect(TextFolding.folded("大貓熊 #1234", contains: "貓熊 #12"))
        #expect(TextFolding.folded("大貓熊 #1234", contains: ""))
        #expect(TextFolding.folded("abc", contains: "abc"))
        #expect(!TextFolding.folded("abc", contains: "abcd"))
        #expect(!TextFolding.folded("大貓熊", contains: "熊貓"))
        #expect(TextFolding.folded(TextFolding.fold("（Ｐａｎｄａ）"), contains: TextFolding.fold("panda")))
    }
}

extension TextFoldingTests {
    /// The one-pass lowercasing gives what the standard library gives, scalar by scalar and
    /// for mixed text.
    @Test func lowercasingMatchesTheStandardLibrary() {
        var wrong: [String] = []
        for value in UInt32(0)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a" + String(Character(scalar)) + "Z大"
            if TextFolding.lowercase(text) != text.lowercased() { wrong.append(String(format: "U+%04X", value)) }
        }
        #expect(wrong.isEmpty, "lowercased differently: \(wrong.prefix(20))")
        #expect(TextFolding.lowercase("大貓熊 Giant PANDA İ") == "大貓熊 Giant PANDA İ".lowercased())
    }
}

extension TextFoldingTests {
    /// The compatibility normalisation agrees with Foundation's for every scalar, and for
    /// sequences where marks reorder and compose across scalars.
    @Test func compatibilityNormalisationMatchesFoundation() {
        var wrong: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(Character(scalar))
            if CompatibilityNormalization.normalize(text) != text.precomposedStringWithCompatibilityMapping {
                wrong.append(String(format: "U+%04X", value))
            }
        }
        #expect(wrong.isEmpty, "normalised differently: \(wrong.prefix(20))")
        for text in ["ｶﾞｸﾞﾙ", "e\u{301}\u{323}", "ḱ\u{323}", "①②㍻", "ﬁﬂ", "\u{1100}\u{1161}\u{11A8}", "Å", "ｱ\u{FF9E}", "x\u{2075}\u{2080}"] {
            #expect(CompatibilityNormalization.normalize(text) == text.precomposedStringWithCompatibilityMapping, "\(text)")
        }
        #expect(TextFolding.fold("ｶﾞｸ ①") == "ガク 1")
    }
}
