import AggCore
import Foundation

/// A fixture server's image endpoints: `/img/N.png` a small PNG unique to N (with an ETag,
/// answering 304 to a matching If-None-Match), `/missing.png` 404, `/page.png` an HTML page
/// with status 200, `/fake.png` text declared as a PNG, `/slow.png` a PNG after `slowDelay`.
public enum ImageRoutes {
    /// A PNG-signed body unique to `number`.
    public static func png(_ number: Int) -> Data {
        Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("image \(number)".utf8)
    }

    /// The handler; other paths fall through to `fallback`.
    public static func handler(slowDelay: Double = 5, fallback: FixtureServer.Handler? = nil) -> FixtureServer.Handler {
        { request in
            switch request.path {
            case "/missing.png": return .text("not found", status: 404)
            case "/page.png": return .text("<html><body>Oops</body></html>", contentType: "text/html")
            case "/fake.png": return FixtureResponse(headers: ["Content-Type": "image/png"], body: Data("just text".utf8))
            case "/slow.png": return FixtureResponse(headers: ["Content-Type": "image/png"], body: png(0), delay: slowDelay)
            default:
                if request.path.hasPrefix("/img/"), let number = Int(request.path.dropFirst(5).prefix { $0.isNumber }) {
                    let etag = "\"v\(number)\""
                    if request.headers["if-none-match"] == etag { return FixtureResponse(status: 304, headers: ["ETag": etag]) }
                    return FixtureResponse(headers: ["Content-Type": "image/png", "ETag": etag], body: png(number), delay: 0.01)
                }
                if let fallback { return await fallback(request) }
                return .text("no route", status: 404)
            }
        }
    }
}
