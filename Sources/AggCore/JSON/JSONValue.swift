/// A JSON document as a value. Objects keep their members in document order.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)

    /// The member `key` of an object, or nil.
    public subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array, or nil.
    public subscript(index: Int) -> JSONValue? {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The array, when this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The object, when this is an object.
    public var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// A number read leniently: numbers, and strings holding a number (`"95578"`).
    public var numberValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .string(let text): return Double(text.trimmingSpaces)
        default: return nil
        }
    }

    /// An integer read leniently: integers, integral doubles and strings holding an integer.
    public var intValue: Int? {
        switch self {
        case .int(let value): return value
        case .double(let value): return value.rounded() == value && abs(value) < 9e15 ? Int(value) : nil
        case .string(let text): return Int(text.trimmingSpaces)
        default: return nil
        }
    }

    /// A scalar as text: strings as they are, numbers and booleans written out; nil for null,
    /// arrays and objects.
    public var textValue: String? {
        switch self {
        case .string(let text): return text
        case .int(let value): return String(value)
        case .double(let value): return JSONWriter.format(value)
        case .bool(let value): return value ? "true" : "false"
        default: return nil
        }
    }

    /// True for null.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// A JSON object: members in document order, looked up by key.
public struct JSONObject: Sendable, Hashable, Sequence {
    /// The members in order.
    public private(set) var members: [(key: String, value: JSONValue)]

    /// An object with `members` (later duplicates replace earlier ones on lookup).
    public init(_ members: [(key: String, value: JSONValue)] = []) {
        self.members = members
    }

    /// The value of `key`, or nil.
    public subscript(key: String) -> JSONValue? {
        get {
            for member in members where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append((key, newValue))
            }
        }
    }

    /// The keys in order.
    public var keys: [String] { members.map(\.key) }

    /// Adds a member at the end without looking for an earlier one with the same key: for
    /// builders that know their keys are new. Faster than the subscript on large objects.
    public mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key, value))
    }

    /// True when the object has no members.
    public var isEmpty: Bool { members.isEmpty }

    /// The number of members.
    public var count: Int { members.count }

    /// Makes room for `minimumCapacity` members, for builders that know how many to expect.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        members.reserveCapacity(minimumCapacity)
    }

    public func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> {
        members.makeIterator()
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for member in members {
            hasher.combine(member.key)
            hasher.combine(member.value)
        }
    }
}

extension String {
    /// The text without leading and trailing whitespace; itself, uncopied, when there is
    /// nothing to trim.
    package var trimmingSpaces: String {
        let untouched = utf8.withContiguousStorageIfAvailable { bytes in
            bytes.isEmpty || !UTF8.startsWithSpace(bytes) && !UTF8.endsWithSpace(bytes)
        }
        if untouched == true { return self }
        return self[...].trimmingSpaces
    }
}

extension UTF8 {
    /// True when the UTF-8 text `bytes` starts with whitespace (see `Unicode.Scalar.isSpace`).
    fileprivate static func startsWithSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        switch bytes[0] {
        case 0x09...0x0D, 0x20: return true
        case 0xC2, 0xE1, 0xE2, 0xE3: return bytes.count >= 2 && decodedScalar(bytes[...]).isSpace
        default: return false
        }
    }

    /// True when the UTF-8 text `bytes` ends with whitespace.
    fileprivate static func endsWithSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let last = bytes[bytes.count - 1]
        if last < 0x80 { return (0x09...0x0D).contains(last) || last == 0x20 }
        var start = bytes.count - 1
        while start > 0, bytes[start] & 0xC0 == 0x80, bytes.count - start < 4 { start -= 1 }
        return decodedScalar(bytes[start...]).isSpace
    }

    /// The first scalar of valid UTF-8 text.
    private static func decodedScalar(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Unicode.Scalar {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) { return scalar }
        return "\u{FFFD}"
    }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace (spaces, tabs, line breaks, and
    /// Unicode spaces such as U+3000).
    package var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.isSpace }),
              let last = scalars.lastIndex(where: { !$0.isSpace }) else { return "" }
        return String(self[start..<scalars.index(after: last)])
    }
}

extension Unicode.Scalar {
    /// Unicode whitespace (the White_Space property), checked without a table lookup.
    fileprivate var isSpace: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
    /// An object from a literal, members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements.map { (key: $0.0, value: $0.1) })
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
}

extension JSONValue: ExpressibleByDictionaryLiteral {
    /// An object from a literal, members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}
