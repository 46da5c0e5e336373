@testable import AggCore
import AggTestSupport
import Foundation
import Synchronization
import Testing

@Suite struct HTTPClientTests {
    static var fastRetries: HTTPClientConfiguration {
        var configuration = HTTPClientConfiguration()
        configuration.retry.initialDelay = 0.01
        configuration.retry.maximumDelay = 2
        configuration.connectTimeout = 10
        configuration.totalTimeout = 30
        return configuration
    }

    @Test func aServerErrorIsRetriedThenSucceeds() async throws {
        let calls = Mutex(0)
        try await withFixtureServer({ _ in
            let call = calls.withLock { $0 += 1; return $0 }
            return call == 1 ? .text("overloaded", status: 500) : .text("ok")
        }) { server in
            let response = try await HTTPClient.withHTTPClient(Self.fastRetries) { client in
                try await client.send(HTTPRequest(url: server.baseURL + "/x"))
            }
            #expect(String(decoding: response.body, as: UTF8.self) == "ok")
            #expect(server.requests.count == 2)
        }
    }

    @Test func tooManyRequestsHonoursRetryAfter() async throws {
        let calls = Mutex(0)
        try await withFixtureServer({ _ in
            let call = calls.withLock { $0 += 1; return $0 }
            return call == 1 ? FixtureResponse(status: 429, headers: ["Retry-After": "1"]) : .text("ok")
        }) { server in
            let started = Date()
            _ = try await HTTPClient.withHTTPClient(Self.fastRetries) { client in
                try await client.send(HTTPRequest(url: server.baseURL + "/x"))
            }
            #expect(Date().timeIntervalSince(started) >= 0.95)
            #expect(server.requests.count == 2)
        }
        #expect(RetryPolicy().delay(beforeRetry: 1, retryAfter: 7) == 7)
        #expect(RetryPolicy().delay(beforeRetry: 1, retryAfter: 500) == 30)
        #expect(HTTPClient.retryAfterSeconds("120") == 120)
    }

    @Test func otherClientErrorsFailAtOnceWithStatusAndExcerpt() async throws {
        try await withFixtureServer({ _ in .text("{\"error\": \"no such dataset\"}", status: 404) }) { server in
            let error = await #expect(throws: HTTPError.self) {
                try await HTTPClient.withHTTPClient(Self.fastRetries) { client in
                    try await client.send(HTTPRequest(url: server.baseURL + "/missing?key=s3cret", secrets: ["s3cret"]))
                }
            }
            #expect(error?.kind == .status(404))
            #expect(error?.description == "\(server.baseURL)/missing?key=<redacted>: HTTP 404: {\"error\": \"no such dataset\"}")
            #expect(server.requests.count == 1)
        }
    }

    @Test func retriesAreBounded() async throws {
        try await withFixtureServer({ _ in .text("down", status: 503) }) { server in
            let error = await #expect(throws: HTTPError.self) {
                try await HTTPClient.withHTTPClient(Self.fastRetries) { client in
                    try await client.send(HTTPRequest(url: server.baseURL + "/x"))
                }
            }
            #expect(error?.kind == .status(503))
            #expect(server.requests.count == 4)
        }
    }

    @Test func aSlowResponseTimesOut() async throws {
        var configuration = Self.fastRetries
        configuration.totalTimeout = 0.5
        configuration.retry.maximumAttempts = 1
        try await withFixtureServer({ _ in FixtureResponse(body: Data("late".utf8), delay: 3) }) { server in
            let error = await #expect(throws: HTTPError.self) {
                try await HTTPClient.withHTTPClient(configuration) { client in
                    try await client.send(HTTPRequest(url: server.baseURL + "/slow"))
                }
            }
            #expect(error?.kind == .timeout)
        }
    }

    @Test func aResponseOverTheSizeLimitIsRefused() async throws {
        var configuration = Self.fastRetries
        configuration.maximumResponseSize = 1000
        try await withFixtureServer({ _ in FixtureResponse(body: Data(repeating: 65, count: 5000)) }) { server in
            let error = await #expect(throws: HTTPError.self) {
                try await HTTPClient.withHTTPClient(configuration) { client in
                    try await client.send(HTTPRequest(url: server.baseURL + "/big"))
                }
            }
            #expect(error?.kind == .tooLarge)
        }
    }

    @Test func redirectsAreFollowedAndTheUserAgentNamesAgg() async throws {
        try await withFixtureServer({ request in
            request.path == "/old" ? FixtureResponse(status: 301, headers: ["Location": "/new"]) : .text(request.headers["user-agent"] ?? "")
        }) { server in
            let response = try await HTTPClient.withHTTPClient(Self.fastRetries) { client in
                try await client.send(HTTPRequest(url: server.baseURL + "/old"))
            }
            #expect(response.url == server.baseURL + "/new")
            #expect(String(decoding: response.body, as: UTF8.self).hasPrefix("agg/\(AggVersion.current)"))
        }
    }

    @Test func aRefusedConnectionIsAConnectionError() async throws {
        var configuration = Self.fastRetries
        configuration.retry.maximumAttempts = 2
        let error = await #expect(throws: HTTPError.self) {
            try await HTTPClient.withHTTPClient(configuration) { client in
                try await client.send(HTTPRequest(url: "http://127.0.0.1:9/closed"))
            }
        }
        #expect(error?.kind == .connection)
        #expect(error?.isUnreachable == true)
    }

    @Test func concurrencyIsBoundedByTheMultiHandle() async throws {
        var configuration = Self.fastRetries
        configuration.maximumConcurrentTransfers = 3
        try await withFixtureServer({ _ in FixtureResponse(body: Data("x".utf8), delay: 0.2) }) { server in
            let peak = try await HTTPClient.withHTTPClient(configuration) { client in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<12 {
                        group.addTask { _ = try await client.send(HTTPRequest(url: server.baseURL + "/\(index)")) }
                    }
                    try await group.waitForAll()
                }
                return client.peakConcurrency
            }
            #expect(server.requests.count == 12)
            #expect(server.peakConcurrency <= 3)
            #expect(peak <= 3)
        }
    }
}
