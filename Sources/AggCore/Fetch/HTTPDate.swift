#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Dates in HTTP headers (RFC 9110, section 5.6.7), read without a date formatter (which needs
/// all of Foundation and its start-up cost).
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    /// The moment `text` names, in any of the three forms a recipient must accept:
    /// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate), `Sunday, 06-Nov-94 08:49:37 GMT`
    /// (RFC 850) and `Sun Nov  6 08:49:37 1994` (asctime); nil for anything else.
    static func parse(_ text: String) -> Date? {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "-" }).map { $0.lowercased() }
        let day: Substring, month: String, year: Substring, time: Substring
        switch parts.count {
        case 6 where parts[5] == "gmt":
            (day, month, year, time) = (parts[1][...], parts[2], parts[3][...], parts[4][...])
        case 5:
            (day, month, year, time) = (parts[2][...], parts[1], parts[4][...], parts[3][...])
        default:
            return nil
        }
        let clock = time.split(separator: ":")
        guard let monthIndex = months.firstIndex(of: month),
              let dayNumber = Int(day), (1...31).contains(dayNumber),
              var yearNumber = Int(year), year.count == 2 || year.count == 4,
              clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              hour < 24, minute < 60, second <= 60
        else { return nil }
        if year.count == 2 { yearNumber += yearNumber < 70 ? 2000 : 1900 }
        let days = daysSinceEpoch(year: yearNumber, month: monthIndex + 1, day: dayNumber)
        return Date(timeIntervalSince1970: Double(((days * 24 + hour) * 60 + minute) * 60 + second))
    }

    /// Days from 1970-01-01 to the given day of the proleptic Gregorian calendar (Howard
    /// Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
