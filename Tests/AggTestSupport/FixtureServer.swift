import AggCore
import FlyingFox
import Foundation
import Synchronization

/// A request the fixture server received.
public struct FixtureRequest: Sendable {
    /// The path, such as `/api/v1/dataset/x`.
    public var path: String
    /// Query items by name (the last value wins).
    public var query: [String: String]
    /// Header fields by lowercased name.
    public var headers: [String: String]
}

/// What the fixture server answers.
public struct FixtureResponse: Sendable {
    /// The status code.
    public var status: Int
    /// Extra headers.
    public var headers: [String: String]
    /// The body.
    public var body: Data
    /// Seconds to wait before answering.
    public var delay: Double

    /// Creates a response.
    public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data(), delay: Double = 0) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delay = delay
    }

    /// A JSON response.
    public static func json(_ value: AggCore.JSONValue, status: Int = 200) -> FixtureResponse {
        FixtureResponse(status: status, headers: ["Content-Type": "application/json"], body: Data(JSONWriter.string(value).utf8))
    }

    /// A response with `text` as its body.
    public static func text(_ text: String, status: Int = 200, contentType: String = "text/plain") -> FixtureResponse {
        FixtureResponse(status: status, headers: ["Content-Type": contentType], body: Data(text.utf8))
    }
}

/// An HTTP server on 127.0.0.1 inside the test process, so every fetch goes through libcurl
/// for real without leaving the machine. It answers with a handler the test provides and
/// keeps a log of requests and the most that were in flight at once.
public final class FixtureServer: Sendable {
    /// Answers one request.
    public typealias Handler = @Sendable (FixtureRequest) async -> FixtureResponse

    private let server: HTTPServer
    private let task: Task<Void, any Error>
    /// The port it listens on.
    public let port: UInt16
    private let log = Mutex<(requests: [FixtureRequest], inFlight: Int, peak: Int)>(([], 0, 0))

    /// `http://127.0.0.1:PORT`.
    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Every request so far.
    public var requests: [FixtureRequest] { log.withLock { $0.requests } }

    /// The most requests handled at the same time.
    public var peakConcurrency: Int { log.withLock { $0.peak } }

    private init(server: HTTPServer, task: Task<Void, any Error>, port: UInt16) {
        self.server = server
        self.task = task
        self.port = port
    }

    /// Starts a server answering with `handler`.
    public static func start(_ handler: @escaping Handler) async throws -> FixtureServer {
        let box = Mutex<FixtureServer?>(nil)
        let server = HTTPServer(address: try .inet(ip4: "127.0.0.1", port: 0), timeout: 30, logger: .disabled)
        await server.appendRoute("*") { request in
            let fixtureRequest = FixtureRequest(
                path: request.path,
                query: Dictionary(request.query.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }),
                headers: Dictionary(request.headers.map { ($0.key.rawValue.lowercased(), $0.value) }, uniquingKeysWith: { $1 }))
            let owner = box.withLock { $0 }
            owner?.begin(fixtureRequest)
            defer { owner?.end() }
            let response = await handler(fixtureRequest)
            if response.delay > 0 { try? await Task.sleep(nanoseconds: UInt64(response.delay * 1_000_000_000)) }
            var headers = HTTPHeaders()
            for (name, value) in response.headers { headers[HTTPHeader(name)] = value }
            return HTTPResponse(statusCode: HTTPStatusCode(response.status, phrase: "Fixture"), headers: headers, body: response.body)
        }
        let task = Task { try await server.run() }
        try await server.waitUntilListening()
        guard case .ip4(_, let port)? = await server.listeningAddress else {
            task.cancel()
            throw FixtureServerError()
        }
        let fixtureServer = FixtureServer(server: server, task: task, port: port)
        box.withLock { $0 = fixtureServer }
        return fixtureServer
    }

    private func begin(_ request: FixtureRequest) {
        log.withLock { log in
            log.requests.append(request)
            log.inFlight += 1
            log.peak = max(log.peak, log.inFlight)
        }
    }

    private func end() {
        log.withLock { $0.inFlight -= 1 }
    }

    /// Stops the server.
    public func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }
}

struct FixtureServerError: Error {}

/// Runs `body` with a fixture server that is stopped afterwards.
public func withFixtureServer<T>(_ handler: @escaping FixtureServer.Handler, _ body: (FixtureServer) async throws -> T) async throws -> T {
    let server = try await FixtureServer.start(handler)
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}
