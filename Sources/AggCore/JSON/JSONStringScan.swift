import CByteScan

/// Finds where a run of plain string content ends: the next byte that JSON strings treat
/// specially (a quote, a backslash or a control character). Most strings in API payloads
/// contain none, so reading and writing them is one scan and one copy. The scan itself is C
/// (`CByteScan`), sixteen bytes a step with SSE2: it reads every byte of every string twice
/// in a sync, and eight bytes a step in Swift took 6 % of a sync's instructions.
enum JSONStringScan {
    /// The index of the first quote, backslash or control byte at or after `start`, or
    /// `bytes.count` when there is none.
    static func firstSpecialByte(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count else { return start }
        return Int(agg_first_special_byte(base, bytes.count, start))
    }
}
