@testable import TaipeiZooDecoder
import Testing

@Suite struct KnownKeyTableTests {
    @Test func findsEveryKeyAndNothingElse() {
        let keys = (0..<500).map { "a_field_\($0)" } + ["", "大貓熊", "a_interpretation_longer_than_fifteen_bytes"]
        let table = KnownKeyTable(keys.enumerated().map { ($1, $0) })
        for (index, key) in keys.enumerated() { #expect(table[key] == index) }
        for missing in ["a_field_500", "a_field_-1", "A_FIELD_1", "大貓", " a_field_1"] { #expect(table[missing] == nil) }
    }

    @Test func theZooDecoderKnowsItsKeysByTheTable() {
        #expect(TaipeiZooRecordDecoder.knownKeys["a_name_ch"]?.key == "name")
        #expect(TaipeiZooRecordDecoder.knownKeys["_id"]?.role == .id)
        #expect(TaipeiZooRecordDecoder.knownKeys["a_geo"]?.role == .geo)
        #expect(TaipeiZooRecordDecoder.knownKeys["A_Name_Ch"] == nil)
    }
}
