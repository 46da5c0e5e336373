import AggCore

/// Decodes Taipei Metro train arrivals (`Station`, `Destination`, `UpdateTime`).
///
/// Records may come in the data.taipei API envelope (`result.results`), as a bare array, or
/// as the file download's `{"resource": […]}`. `UpdateTime` is Taipei local time without a
/// zone, with 0 to 3 fractional digits (`2020-06-08T16:13:08`, `…:36.89`, `…:44.707`) or, in
/// the newer feed, `yyyyMMddHHmmss`. It becomes `updated` in ISO 8601 at +08:00, and
/// `updated_display` in the form riders read (`2020年06月08日16時13分`).
public struct TaipeiMetroRecordDecoder: RecordDecoder {
    /// Creates the decoder.
    public init() {}

    /// `taipei-metro`.
    public var name: String { "taipei-metro" }

    public func records(in document: JSONValue, source: SourceDefinition) throws -> [JSONValue] {
        if let array = document.arrayValue { return array }
        if let resource = document["resource"]?.arrayValue { return resource }
        if let results = document["result"]?["results"]?.arrayValue { return results }
        return try Self.array(at: source.records, in: document)
    }

    public func decode(_ raw: JSONValue, source: SourceDefinition) -> DecodeOutcome {
        guard let object = raw.objectValue else {
            return .skipped(reason: "a metro record must be an object, found \(raw.kindDescription)")
        }
        var fields = JSONObject()
        var warnings: [String] = []
        for (rawKey, value) in object {
            let key = rawKey.unicodeScalars.filter { $0 != "\u{FEFF}" }.map(String.init).joined()
            switch key.lowercased() {
            case "station": fields["station"] = value.textValue.map { .string($0.trimmingSpaces) }
            case "destination": fields["destination"] = value.textValue.map { .string($0.trimmingSpaces) }
            case "stationen": fields["station_en"] = value.textValue.map { .string($0.trimmingSpaces) }
            case "destinationen": fields["destination_en"] = value.textValue.map { .string($0.trimmingSpaces) }
            case "_id": fields["id"] = value.textValue.map { .string($0) }
            case "updatetime":
                guard let text = value.textValue else { continue }
                if let time = TaipeiTime(text) {
                    fields["updated"] = .string(time.iso8601)
                    fields["updated_display"] = .string(time.display)
                } else {
                    fields["updated"] = .string(text)
                    warnings.append("could not read the time '\(text)'")
                }
            default:
                fields[key.lowercased()] = value
            }
        }
        guard fields["station"] != nil, fields["destination"] != nil else {
            return .skipped(reason: "a metro record needs Station and Destination")
        }
        return .record(fields, warnings: warnings)
    }
}

/// A Taipei local time as the metro feed writes it.
struct TaipeiTime {
    var year, month, day, hour, minute, second: Int
    /// Milliseconds, from 0 to 3 fractional digits.
    var milliseconds: Int
    var fractionDigits: Int

    /// Reads `yyyy-MM-ddTHH:mm:ss[.f{1,3}]` (also with a space for `T`) or `yyyyMMddHHmmss`.
    init?(_ text: String) {
        let characters = Array(text.trimmingSpaces)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= characters.count else { return nil }
            let slice = characters[range]
            guard slice.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(slice))
        }
        if characters.count == 14, let compact = number(0..<14), compact > 0 {
            guard let y = number(0..<4), let mo = number(4..<6), let d = number(6..<8),
                  let h = number(8..<10), let mi = number(10..<12), let s = number(12..<14) else { return nil }
            (year, month, day, hour, minute, second, milliseconds, fractionDigits) = (y, mo, d, h, mi, s, 0, 0)
        } else {
            guard characters.count >= 19, characters[4] == "-", characters[7] == "-",
                  characters[10] == "T" || characters[10] == " ", characters[13] == ":", characters[16] == ":",
                  let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10),
                  let h = number(11..<13), let mi = number(14..<16), let s = number(17..<19) else { return nil }
            var fraction = 0
            var digits = 0
            if characters.count > 19 {
                guard characters[19] == ".", characters.count <= 23, characters.count > 20,
                      let value = number(20..<characters.count) else { return nil }
                digits = characters.count - 20
                fraction = value * [1, 100, 10, 1][digits]
            }
            (year, month, day, hour, minute, second, milliseconds, fractionDigits) = (y, mo, d, h, mi, s, fraction, digits)
        }
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour),
              (0...59).contains(minute), (0...60).contains(second) else { return nil }
    }

    private func pad(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }

    /// `2020-06-08T16:13:44.707+08:00`; the fraction is kept only when the feed gave one.
    var iso8601: String {
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if fractionDigits > 0 { text += "." + pad(milliseconds, 3) }
        return text + "+08:00"
    }

    /// `2020年06月08日16時13分`.
    var display: String {
        "\(pad(year, 4))年\(pad(month, 2))月\(pad(day, 2))日\(pad(hour, 2))時\(pad(minute, 2))分"
    }
}
