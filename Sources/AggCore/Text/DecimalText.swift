/// Numbers as text for people, without `String(format:)` (which needs all of Foundation and
/// its start-up cost).
public enum DecimalText {
    /// `value` with one digit after the point, rounded half away from zero: `0.3`, `12.0`,
    /// `-1.5`; what `%.1f` prints for every value that is not exactly halfway.
    public static func tenths(_ value: Double) -> String {
        guard value.isFinite, abs(value) < 1e15 else { return "\(value)" }
        let tenths = Int((abs(value) * 10).rounded())
        return (value.sign == .minus ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
    }
}
