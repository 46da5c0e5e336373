/// Writes `JSONValue`s as compact JSON (UTF-8, non-ASCII characters unescaped). Output is
/// built as bytes, copying unescaped runs of a string at once.
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        String(decoding: bytes(value), as: UTF8.self)
    }

    /// The compact JSON of `value` as UTF-8 bytes; `expectedSize` is room reserved up front
    /// (the size of a similar document, say) to spare growing the buffer.
    public static func bytes(_ value: JSONValue, expectedSize: Int = 256) -> [UInt8] {
        var output = Output(capacity: expectedSize)
        output.write(value)
        return output.bytes()
    }

    /// A growing byte buffer written through its pointer: appending a run costs one
    /// capacity check and one copy, where `Array.append(contentsOf:)` also went through
    /// uniqueness checks and the generic sequence copy for every string and punctuation mark.
    private struct Output: ~Copyable {
        private var base: UnsafeMutablePointer<UInt8>
        private var count = 0
        private var capacity: Int

        init(capacity: Int) {
            self.capacity = max(capacity, 16)
            base = .allocate(capacity: self.capacity)
        }

        deinit { base.deallocate() }

        /// The bytes written.
        consuming func bytes() -> [UInt8] {
            Array(UnsafeBufferPointer(start: base, count: count))
        }

        @inline(__always)
        private mutating func reserve(_ extra: Int) {
            if count + extra > capacity { grow(to: count + extra) }
        }

        private mutating func grow(to needed: Int) {
            var newCapacity = capacity * 2
            while newCapacity < needed { newCapacity *= 2 }
            let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            grown.update(from: base, count: count)
            base.deallocate()
            base = grown
            capacity = newCapacity
        }

        @inline(__always)
        mutating func append(_ byte: UInt8) {
            reserve(1)
            base[count] = byte
            count += 1
        }

        @inline(__always)
        mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
            guard let start = run.baseAddress, !run.isEmpty else { return }
            reserve(run.count)
            (base + count).update(from: start, count: run.count)
            count += run.count
        }

        mutating func append(_ text: StaticString) {
            append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        mutating func append(_ text: String) {
            var text = text
            text.withUTF8 { append($0) }
        }

        mutating func write(_ value: JSONValue) {
            switch value {
            case .null: append("null")
            case .bool(let flag): append(flag ? "true" : "false")
            case .int(let number): append(String(number))
            case .double(let number): if number.isFinite { append(format(number)) } else { append("null") }
            case .string(let text): writeString(text)
            case .array(let elements):
                append(UInt8(ascii: "["))
                for (index, element) in elements.enumerated() {
                    if index > 0 { append(UInt8(ascii: ",")) }
                    write(element)
                }
                append(UInt8(ascii: "]"))
            case .object(let object):
                append(UInt8(ascii: "{"))
                for (index, member) in object.members.enumerated() {
                    if index > 0 { append(UInt8(ascii: ",")) }
                    writeString(member.key)
                    append(UInt8(ascii: ":"))
                    write(member.value)
                }
                append(UInt8(ascii: "}"))
            }
        }

        mutating func writeString(_ text: String) {
            append(UInt8(ascii: "\""))
            if text.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) == nil {
                var text = text
                text.withUTF8 { writeEscaped($0) }
            }
            append(UInt8(ascii: "\""))
        }

        /// The string's bytes with quotes, backslashes and control characters escaped.
        private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
            var runStart = 0
            while true {
                let index = JSONStringScan.firstSpecialByte(in: bytes, from: runStart)
                guard index < bytes.count else { break }
                let byte = bytes[index]
                append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x0A: append("\\n")
                case 0x0D: append("\\r")
                case 0x09: append("\\t")
                default:
                    let hex = String(byte, radix: 16)
                    append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
                }
            }
            append(UnsafeBufferPointer(rebasing: bytes[runStart..<bytes.count]))
        }
    }

    /// A double without a needless `.0` when it is integral.
    static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
