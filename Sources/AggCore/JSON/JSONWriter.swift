/// Writes `JSONValue`s as compact JSON text (UTF-8, no escaping of non-ASCII characters).
public enum JSONWriter {
    /// The compact JSON text of `value`.
    public static func string(_ value: JSONValue) -> String {
        var output = ""
        write(value, into: &output)
        return output
    }

    /// Appends the compact JSON text of `value` to `output`.
    public static func write(_ value: JSONValue, into output: inout String) {
        switch value {
        case .null: output += "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .int(let number): output += String(number)
        case .double(let number): output += number.isFinite ? format(number) : "null"
        case .string(let text): writeString(text, into: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, into: &output)
            }
            output += "]"
        case .object(let object):
            output += "{"
            for (index, member) in object.members.enumerated() {
                if index > 0 { output += "," }
                writeString(member.key, into: &output)
                output += ":"
                write(member.value, into: &output)
            }
            output += "}"
        }
    }

    /// A JSON string literal for `text`.
    public static func writeString(_ text: String, into output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }

    /// A double without a needless `.0` when it is integral.
    static func format(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
