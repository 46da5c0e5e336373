#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error reading JSON, with the byte offset where it went wrong.
public struct JSONParseError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// The 0-based byte offset.
    public var offset: Int

    public var description: String { "invalid JSON at byte \(offset): \(reason)" }
}

/// A strict, fast JSON reader over UTF-8 bytes. A leading UTF-8 byte order mark is skipped.
public enum JSONParser {
    /// The deepest nesting accepted.
    public static let maximumDepth = 512

    /// Parses one JSON document.
    public static func parse(_ bytes: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(JSONParseError) -> JSONValue in try parse(buffer: buffer) }
        }
        if let result { return try result.get() }
        return try Array(bytes).withUnsafeBufferPointer { (buffer) throws(JSONParseError) -> JSONValue in
            try parse(buffer: buffer)
        }
    }

    /// Parses one JSON document from bytes in memory the caller owns.
    public static func parse(buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var reader = Reader(bytes: buffer)
        return try reader.document()
    }

    /// Parses one JSON document and also returns, for every array of objects near the top
    /// (such as a page's list of records), the byte range of each element: the records'
    /// original text, which callers can keep without encoding the values again.
    public static func parseKeepingElementText(buffer: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> (JSONValue, ElementText) {
        var reader = Reader(bytes: buffer)
        reader.recordsSpans = true
        reader.remembersKeys = true
        let value = try reader.document()
        return (value, ElementText(spans: reader.spans, bytes: buffer))
    }

    /// Parses one JSON document from text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// The original text of the elements of arrays in a parsed document, by array.
public struct ElementText {
    fileprivate let spans: [UnsafeRawPointer: [Range<Int>]]
    fileprivate let bytes: UnsafeBufferPointer<UInt8>

    /// The original JSON text of each element of `array`, when `array` is one of the
    /// document's arrays of objects (and not a copy made since); nil otherwise. Valid while the
    /// parsed buffer is.
    public func texts(of array: [JSONValue]) -> [[UInt8]]? {
        guard let base = array.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) }),
              let ranges = spans[base], ranges.count == array.count else { return nil }
        return ranges.map { Array(bytes[$0]) }
    }
}

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var recordsSpans = false
    var spans: [UnsafeRawPointer: [Range<Int>]] = [:]
    /// Members and elements of the objects and arrays being read, innermost last: each
    /// container is moved out once, at its exact size, instead of growing its own array.
    let pendingMembers = PendingStack<(key: String, value: JSONValue)>()
    let pendingElements = PendingStack<JSONValue>()
    /// When true, the keys of the last object read at each depth are kept, by member index,
    /// with their bytes: the records of a page repeat their keys in the same order, so most
    /// keys are recognised by comparing bytes instead of being decoded and allocated again.
    /// Off for documents of one object, where remembering would only cost.
    var remembersKeys = false
    var recentKeys: [[(bytes: [UInt8], text: String)]] = []
    /// Keys are remembered for the first members of objects only: records have tens of
    /// fields, while an object with thousands of members is a map whose keys do not repeat.
    static let rememberedMembers = 256

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func document() throws(JSONParseError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
        skipSpace()
        let value = try self.value(depth: 0)
        skipSpace()
        if position != bytes.count { throw fail("unexpected text after the document") }
        return value
    }

    func fail(_ reason: String) -> JSONParseError {
        JSONParseError(reason: reason, offset: position)
    }

    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    mutating func value(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw fail("unexpected end of input (truncated?)") }
        guard depth < JSONParser.maximumDepth else { throw fail("nested deeper than \(JSONParser.maximumDepth) levels") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default:
            throw fail("unexpected character '\(Character(Unicode.Scalar(bytes[position])))'")
        }
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        for byte in word.utf8 {
            guard position < bytes.count else { throw fail("unexpected end of input (truncated?)") }
            guard bytes[position] == byte else { throw fail("invalid literal") }
            position += 1
        }
    }

    mutating func object(depth: Int) throws(JSONParseError) -> JSONValue {
        position += 1
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return .object(JSONObject())
        }
        let first = pendingMembers.count
        defer { pendingMembers.discard(from: first) }
        while true {
            skipSpace()
            guard position < bytes.count else { throw fail("unexpected end of input (truncated?)") }
            guard bytes[position] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try key(depth: depth, member: pendingMembers.count - first)
            skipSpace()
            guard position < bytes.count else { throw fail("unexpected end of input (truncated?)") }
            guard bytes[position] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
            position += 1
            skipSpace()
            let member = try value(depth: depth + 1)
            pendingMembers.push((key, member))
            skipSpace()
            guard position < bytes.count else { throw fail("unexpected end of input (truncated?)") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "}") {
                position += 1
                return .object(JSONObject(pendingMembers.take(from: first)))
            }
            throw fail("expected ',' or '}' in an object")
        }
    }

    /// The key at `position` (its opening quote), the `member`th of an object at `depth`.
    mutating func key(depth: Int, member: Int) throws(JSONParseError) -> String {
        guard remembersKeys else { return try string() }
        let start = position + 1
        if depth < recentKeys.count, member < recentKeys[depth].count {
            let known = recentKeys[depth][member]
            let end = start + known.bytes.count
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""),
               known.bytes.withUnsafeBytes({ $0.isEmpty || memcmp($0.baseAddress!, bytes.baseAddress! + start, $0.count) == 0 }) {
                position = end + 1
                return known.text
            }
        }
        let text = try string()
        let keyBytes = UnsafeBufferPointer(rebasing: bytes[start..<(position - 1)])
        guard text.utf8.count == keyBytes.count, member < Self.rememberedMembers else { return text }
        while recentKeys.count <= depth { recentKeys.append([]) }
        if member < recentKeys[depth].count {
            recentKeys[depth][member] = (Array(keyBytes), text)
        } else if member == recentKeys[depth].count {
            recentKeys[depth].append((Array(keyBytes), text))
        }
        return text
    }

    mutating func array(depth: Int) throws(JSONParseError) -> JSONValue {
        position += 1
        let keepsSpans = recordsSpans && depth <= 4
        var ranges: [Range<Int>] = []
        skipSpace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return .array([])
        }
        let first = pendingElements.count
        defer { pendingElements.discard(from: first) }
        while true {
            skipSpace()
            let start = position
            let element = try value(depth: depth + 1)
            pendingElements.push(element)
            if keepsSpans { ranges.append(start..<position) }
            skipSpace()
            guard position < bytes.count else { throw fail("unexpected end of input (truncated?)") }
            if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
            if bytes[position] == UInt8(ascii: "]") {
                position += 1
                let elements = pendingElements.take(from: first)
                if keepsSpans, case .object? = elements.first,
                   let base = elements.withUnsafeBufferPointer({ $0.baseAddress.map(UnsafeRawPointer.init) }) {
                    spans[base] = ranges
                }
                return .array(elements)
            }
            throw fail("expected ',' or ']' in an array")
        }
    }

    mutating func number() throws(JSONParseError) -> JSONValue {
        let start = position
        var isInteger = true
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            isInteger = false
            position += 1
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            isInteger = false
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard position < bytes.count, isDigit(bytes[position]) else { throw fail("invalid number") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text) else { throw fail("invalid number") }
        return .double(value)
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    mutating func string() throws(JSONParseError) -> String {
        position += 1
        let start = position
        position = JSONStringScan.firstSpecialByte(in: bytes, from: position)
        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
            position += 1
            return text
        }
        var buffer: [UInt8] = []
        buffer.reserveCapacity(position - start + 64)
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                position += 1
                return String(decoding: buffer, as: UTF8.self)
            }
            if byte < 0x20 { throw fail("control character in a string") }
            if byte != UInt8(ascii: "\\") {
                let runEnd = JSONStringScan.firstSpecialByte(in: bytes, from: position)
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<runEnd]))
                position = runEnd
                continue
            }
            position += 1
            guard position < bytes.count else { break }
            let escape = bytes[position]
            position += 1
            switch escape {
            case UInt8(ascii: "\""): buffer.append(0x22)
            case UInt8(ascii: "\\"): buffer.append(0x5C)
            case UInt8(ascii: "/"): buffer.append(0x2F)
            case UInt8(ascii: "b"): buffer.append(0x08)
            case UInt8(ascii: "f"): buffer.append(0x0C)
            case UInt8(ascii: "n"): buffer.append(0x0A)
            case UInt8(ascii: "r"): buffer.append(0x0D)
            case UInt8(ascii: "t"): buffer.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4()
                if (0xD800...0xDBFF).contains(scalar) {
                    if position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") {
                        position += 2
                        let low = try hex4()
                        if (0xDC00...0xDFFF).contains(low) {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                buffer.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
            default:
                throw fail("invalid escape in a string")
            }
        }
        throw fail("unexpected end of input inside a string (truncated?)")
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw fail("unexpected end of input (truncated?)") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }
}
