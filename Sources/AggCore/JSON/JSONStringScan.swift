/// Finds, eight bytes at a time, where a run of plain string content ends: the next byte that
/// JSON strings treat specially (a quote, a backslash or a control character). Most strings
/// in API payloads contain none, so reading and writing them is one scan and one copy.
enum JSONStringScan {
    /// The index of the first quote, backslash or control byte at or after `start`, or
    /// `bytes.count` when there is none.
    static func firstSpecialByte(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= bytes.count, !containsSpecialByte(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            index += 1
        }
        return index
    }

    /// Whether any of the word's eight bytes is a quote, a backslash or below 0x20. (The
    /// classic "has a zero byte" and "has a byte less than n" tests: exact for any/none.)
    @inline(__always)
    static func containsSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let quoteFound = (quotes &- ones) & ~quotes
        let backslashFound = (backslashes &- ones) & ~backslashes
        let controlFound = (word &- ones &* 0x20) & ~word
        return (quoteFound | backslashFound | controlFound) & highBits != 0
    }
}
