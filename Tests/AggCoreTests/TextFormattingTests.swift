@testable import AggCore
import Foundation
import Testing

@Suite struct TextFormattingTests {
    @Test func tenthsPrintWhatPercentPointOneFPrints() {
        for value in [0, -0.0, 0.04, 0.06, 0.3, 1, 9.94, 9.96, 12.34, 999.99, 1_048_576, -1.5, -0.04, 123_456.7] {
            #expect(DecimalText.tenths(value) == String(format: "%.1f", value), "\(value)")
        }
        #expect(ByteCount.format(512) == "512 B")
        #expect(ByteCount.format(12_595) == "12.3 KB")
        #expect(ByteCount.format(4_718_592) == "4.5 MB")
    }

    @Test func httpDatesInAllThreeForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == expected)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == expected)
        #expect(HTTPDate.parse("Tue, 29 Feb 2028 23:59:59 GMT") == Date(timeIntervalSince1970: 1_835_481_599))
        #expect(HTTPDate.parse("Thu, 01 Jan 1970 00:00:00 GMT") == Date(timeIntervalSince1970: 0))
        for broken in ["", "soon", "Sun, 06 Nov 1994 08:49:37 CET", "Sun, 32 Nov 1994 08:49:37 GMT",
                       "Sun, 06 Now 1994 08:49:37 GMT", "Sun, 06 Nov 1994 8:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT"] {
            #expect(HTTPDate.parse(broken) == nil, "\(broken)")
        }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let text = formatter.string(from: Date().addingTimeInterval(120))
        #expect(abs((HTTPClient.retryAfterSeconds(text) ?? 0) - 120) < 2)
        #expect(HTTPClient.retryAfterSeconds("Sun, 06 Nov 1994 08:49:37 GMT") == 0)
    }
}
