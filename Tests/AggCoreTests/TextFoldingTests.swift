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

    @Test func textWithUnstableScalarsTakesTheFullPath() {
        #expect(!TextFolding.isNormalizationStable("Ａ"))
        #expect(!TextFolding.isNormalizationStable("\u{3099}"))
        #expect(!TextFolding.isNormalizationStable("\u{3000}"))
        #expect(TextFolding.fold("カ\u{3099}") == "ガ")
    }
}
