#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One HTTP request for `HTTPClient`.
public struct HTTPRequest: Sendable, Hashable {
    /// The absolute URL.
    public var url: String
    /// GET or POST.
    public var method: RequestTemplate.Method
    /// Header lines (`Name: value`).
    public var headers: [String]
    /// The body, for POST.
    public var body: Data?
    /// Values to redact from every error message about this request.
    public var secrets: [String]
    /// Conditional-request validators, for revalidating cached content.
    public var ifNoneMatch: String?
    /// Conditional-request validators, for revalidating cached content.
    public var ifModifiedSince: String?

    /// Creates a request.
    public init(url: String, method: RequestTemplate.Method = .get, headers: [String] = [], body: Data? = nil, secrets: [String] = []) {
        self.url = url
        self.method = method
        self.headers = headers
        self.body = body
        self.secrets = secrets
    }

    /// `text` with the request's secrets replaced by `<redacted>`.
    public func redact(_ text: String) -> String {
        Redaction.redact(text, secrets: secrets)
    }
}

/// A response, after redirects and content decoding.
public struct HTTPResponse: Sendable {
    /// The status code of the final response.
    public var status: Int
    /// Header fields of the final response, names lowercased.
    public var headers: [(name: String, value: String)]
    /// The decoded body.
    public var body: Data
    /// The URL the body came from, after redirects.
    public var url: String

    /// The first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name == lowered }?.value
    }
}

/// Limits and behaviour of an `HTTPClient`.
public struct HTTPClientConfiguration: Sendable {
    /// How long connecting may take, in seconds.
    public var connectTimeout: Double = 10
    /// How long a whole transfer may take, in seconds.
    public var totalTimeout: Double = 120
    /// The largest body accepted, in bytes.
    public var maximumResponseSize: Int = 512 * 1024 * 1024
    /// Transfers running at once on the client's multi handle.
    public var maximumConcurrentTransfers: Int = 8
    /// The User-Agent header.
    public var userAgent: String = AggVersion.userAgent
    /// When and how to retry.
    public var retry = RetryPolicy()

    /// The defaults.
    public init() {}
}

/// Retries with exponential backoff and jitter, for connection errors, 5xx and 429.
public struct RetryPolicy: Sendable {
    /// Attempts in all, the first one included.
    public var maximumAttempts: Int = 4
    /// The delay before the first retry, in seconds; it doubles each time.
    public var initialDelay: Double = 0.5
    /// The longest delay, in seconds, also capping `Retry-After`.
    public var maximumDelay: Double = 30
    /// The random part of each delay, as a fraction of it.
    public var jitter: Double = 0.25

    /// The defaults.
    public init() {}

    /// The delay before retry number `retry` (1-based), or what `Retry-After` asks for.
    public func delay(beforeRetry retry: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return min(max(0, retryAfter), maximumDelay) }
        let base = min(initialDelay * Double(sign: .plus, exponent: max(0, retry - 1), significand: 1), maximumDelay)
        return base * (1 + Double.random(in: -jitter...jitter))
    }
}

/// A transfer that failed: a connection problem, a timeout, a status that is not success, or
/// a body over the size limit. Messages never contain secrets.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure this is.
    public enum Kind: Sendable, Hashable {
        /// Could not connect, or the connection broke (refused, reset, TLS).
        case connection
        /// The host name does not resolve (offline, or a typo): retrying will not help.
        case hostNotFound
        /// Connecting or the whole transfer took too long.
        case timeout
        /// The server answered with this status.
        case status(Int)
        /// The body was larger than allowed.
        case tooLarge
        /// The transfer was cancelled.
        case cancelled
        /// libcurl could not be loaded, so nothing can be fetched on this machine.
        case clientUnavailable
    }

    /// The kind.
    public var kind: Kind
    /// The URL, redacted.
    public var url: String
    /// What happened, in words.
    public var detail: String
    /// `Retry-After`, in seconds, when the server sent one.
    public var retryAfter: Double?

    /// Whether trying again may help: connection errors, timeouts, 5xx and 429.
    public var isRetryable: Bool {
        switch kind {
        case .connection, .timeout: true
        case .status(let status): status == 429 || status >= 500
        case .tooLarge, .cancelled, .hostNotFound, .clientUnavailable: false
        }
    }

    /// Whether the failure means the endpoint could not be reached at all (so a bundled
    /// snapshot may stand in).
    public var isUnreachable: Bool {
        switch kind {
        case .connection, .timeout, .hostNotFound, .clientUnavailable: true
        case .status(let status): status >= 500
        default: false
        }
    }

    public var description: String { "\(url): \(detail)" }
}
