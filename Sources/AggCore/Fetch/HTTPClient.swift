#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// HTTP over libcurl: one multi handle, a bounded number of transfers at once, redirects,
/// gzip and deflate, timeouts, TLS verification, a size limit, and retries with exponential
/// backoff and jitter on connection errors, 5xx and 429 (honouring `Retry-After`). Any other
/// status that is not success fails at once with the status and a short excerpt of the body.
///
/// A client owns a thread; use `withHTTPClient(_:_:)` so it is always shut down.
public final class HTTPClient: Sendable {
    /// The limits in force.
    public let configuration: HTTPClientConfiguration
    /// The transfer loop; nil when libcurl cannot be loaded, and then every send fails with
    /// `HTTPError.Kind.clientUnavailable`.
    private let loop: CurlMultiLoop?

    private init(configuration: HTTPClientConfiguration) {
        self.configuration = configuration
        self.loop = CurlMultiLoop(maximumConcurrentTransfers: configuration.maximumConcurrentTransfers)
    }

    /// Runs `body` with a client that is shut down when it returns or throws.
    public static func withHTTPClient<T>(
        _ configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
        _ body: (HTTPClient) async throws -> T
    ) async rethrows -> T {
        let client = HTTPClient(configuration: configuration)
        defer { client.loop?.shutdown() }
        return try await body(client)
    }

    /// The most transfers that ran at once on this client.
    public var peakConcurrency: Int { loop?.peakConcurrency ?? 0 }

    /// Sends `request`, retrying as the policy allows, and returns a successful response
    /// (2xx, or 304 for conditional requests).
    public func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        var attempt = 1
        while true {
            do {
                return try await sendOnce(request)
            } catch let error as HTTPError where error.isRetryable && attempt < configuration.retry.maximumAttempts {
                let delay = configuration.retry.delay(beforeRetry: attempt, retryAfter: error.retryAfter)
                attempt += 1
                try await Task.sleep(nanoseconds: UInt64(delay * 1_000_000_000))
            }
        }
    }

    /// One attempt, without retries.
    public func sendOnce(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard let loop else {
            throw HTTPError(
                kind: .clientUnavailable, url: request.redact(request.url),
                detail: CurlMultiLoop.libraryProblem ?? "libcurl could not be started")
        }
        let transfer = try CurlTransfer(request: request, configuration: configuration)
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.attach(continuation)
                loop.submit(transfer)
            }
        } onCancel: {
            transfer.cancel()
            loop.wake()
        }
        if (200..<300).contains(response.status) || response.status == 304 { return response }
        throw HTTPError(
            kind: .status(response.status), url: request.redact(request.url),
            detail: request.redact("HTTP \(response.status)\(Self.excerpt(response.body))"),
            retryAfter: response.header("retry-after").flatMap(Self.retryAfterSeconds))
    }

    /// `: <first 160 characters of the body>` on one line, or nothing for an empty body.
    static func excerpt(_ body: Data) -> String {
        let text = String(decoding: body.prefix(400), as: UTF8.self)
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        guard !text.isEmpty else { return "" }
        return ": " + (text.count > 160 ? String(text.prefix(160)) + "…" : text)
    }

    /// `Retry-After` as seconds: a number, or an HTTP date.
    static func retryAfterSeconds(_ value: String) -> Double? {
        if let seconds = Double(value.trimmingSpaces) { return seconds }
        return HTTPDate.parse(value).map { max(0, $0.timeIntervalSinceNow) }
    }
}
