/// How long fetched data stays fresh, written like `30s`, `15m`, `12h`, `1d`, `1w` or `1h30m`.
public struct TimeToLive: Sendable, Hashable, CustomStringConvertible {
    /// The length in seconds.
    public let seconds: Int
    /// The text as written.
    public let description: String

    /// Parses a time to live; nil when the text is not one.
    public init?(_ text: String) {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        var total = 0
        var digits = ""
        var sawUnit = false
        for character in text.trimmingSpaces {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if let unit = units[character], let number = Int(digits) {
                total += number * unit
                digits = ""
                sawUnit = true
            } else {
                return nil
            }
        }
        guard digits.isEmpty, sawUnit else { return nil }
        self.seconds = total
        self.description = text
    }
}
