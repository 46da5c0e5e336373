/// A fixed set of string keys and their values, looked up by the keys' UTF-8 bytes with a
/// cheap unseeded hash (FNV-1a) and linear probing. Every field of every record is looked
/// up here; the standard `Dictionary`, with its seeded SipHash, took a third of the
/// decoder's time. An unseeded hash is safe here: the table is filled once with the
/// decoder's own keys and stays at most a quarter full, so a lookup of any key a server
/// sends stops at the first empty slot after a few probes.
struct KnownKeyTable<Value: Sendable>: Sendable {
    /// The key in each slot; nil for an empty slot. Kept apart from the values so a probe
    /// compares a key in place instead of copying (retaining) a key and value pair.
    private let keys: [String?]
    private let values: [Value?]
    private let mask: Int

    /// A table of `entries`, whose keys must be distinct.
    init(_ entries: [(String, Value)]) {
        var capacity = 8
        while capacity < entries.count * 4 { capacity *= 2 }
        var keys = [String?](repeating: nil, count: capacity)
        var values = [Value?](repeating: nil, count: capacity)
        for (key, value) in entries {
            var index = Self.hash(key) & (capacity - 1)
            while keys[index] != nil { index = (index + 1) & (capacity - 1) }
            keys[index] = key
            values[index] = value
        }
        self.keys = keys
        self.values = values
        self.mask = capacity - 1
    }

    /// The value of `key`, or nil.
    subscript(key: String) -> Value? {
        var index = Self.hash(key) & mask
        while keys[index] != nil {
            if keys[index] == key { return values[index] }
            index = (index + 1) & mask
        }
        return nil
    }

    /// FNV-1a over the key's UTF-8, eight bytes at a time, folded so the low bits that pick
    /// a slot depend on all of them.
    private static func hash(_ key: String) -> Int {
        if let hash = key.utf8.withContiguousStorageIfAvailable({ hash(bytes: $0) }) { return hash }
        return Array(key.utf8).withUnsafeBufferPointer { hash(bytes: $0) }
    }

    private static func hash(bytes: UnsafeBufferPointer<UInt8>) -> Int {
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
