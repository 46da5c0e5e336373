/// A fixed set of string keys and their values, looked up by the keys' UTF-8 bytes with a
/// cheap unseeded hash (FNV-1a) and linear probing. Every field of every record is looked
/// up here; the standard `Dictionary`, with its seeded SipHash, took a third of the
/// decoder's time. An unseeded hash is safe here: the table is filled once with the
/// decoder's own keys and stays at most a quarter full, so a lookup of any key a server
/// sends stops at the first empty slot after a few probes.
struct KnownKeyTable<Value: Sendable>: Sendable {
    private let slots: [(key: String, value: Value)?]
    private let mask: Int

    /// A table of `entries`, whose keys must be distinct.
    init(_ entries: [(String, Value)]) {
        var capacity = 8
        while capacity < entries.count * 4 { capacity *= 2 }
        var slots = [(key: String, value: Value)?](repeating: nil, count: capacity)
        for (key, value) in entries {
            var index = Self.hash(key) & (capacity - 1)
            while slots[index] != nil { index = (index + 1) & (capacity - 1) }
            slots[index] = (key, value)
        }
        self.slots = slots
        self.mask = capacity - 1
    }

    /// The value of `key`, or nil.
    subscript(key: String) -> Value? {
        var index = Self.hash(key) & mask
        while let slot = slots[index] {
            if slot.key == key { return slot.value }
            index = (index + 1) & mask
        }
        return nil
    }

    /// FNV-1a over the key's UTF-8, eight bytes at a time, folded so the low bits that pick
    /// a slot depend on all of them.
    private static func hash(_ key: String) -> Int {
        var key = key
        return key.withUTF8 { bytes in
            let prime: UInt64 = 0x0000_0100_0000_01B3
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(bytes.count)
            let raw = UnsafeRawBufferPointer(bytes)
            var index = 0
            while index + 8 <= bytes.count {
                hash = (hash ^ raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* prime
                index += 8
            }
            while index < bytes.count {
                hash = (hash ^ UInt64(bytes[index])) &* prime
                index += 1
            }
            return Int(truncatingIfNeeded: hash ^ (hash >> 29))
        }
    }
}
