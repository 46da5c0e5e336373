internal import CCurl
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// One transfer on an easy handle: its options, the bytes received, and the continuation to
/// resume when the multi loop reports it done. Used only by `CurlMultiLoop`'s thread after
/// submission.
final class CurlTransfer: @unchecked Sendable {
    let easy: UnsafeMutableRawPointer
    let request: HTTPRequest
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let maximumSize: Int
    private var body = Data()
    private var headers: [(name: String, value: String)] = []
    private var exceededSize = false
    private var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    private var continuation: CheckedContinuation<HTTPResponse, any Error>?
    private let cancelled = Mutex(false)

    init(request: HTTPRequest, configuration: HTTPClientConfiguration) throws {
        guard let easy = agg_curl_easy_init() else {
            throw HTTPError(kind: .connection, url: request.redact(request.url), detail: "libcurl could not be initialised")
        }
        self.easy = easy
        self.request = request
        self.maximumSize = configuration.maximumResponseSize
        agg_curl_setopt_string(easy, CURLOPT_URL, request.url)
        agg_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        agg_curl_setopt_long(easy, CURLOPT_MAXREDIRS, 10)
        agg_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        agg_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https")
        agg_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        agg_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000))
        agg_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(configuration.totalTimeout * 1000))
        agg_curl_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1)
        agg_curl_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 2)
        agg_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        agg_curl_setopt_string(easy, CURLOPT_USERAGENT, configuration.userAgent)
        var lines = request.headers
        if let etag = request.ifNoneMatch { lines.append("If-None-Match: \(etag)") }
        if let date = request.ifModifiedSince { lines.append("If-Modified-Since: \(date)") }
        for line in lines { headerList = agg_curl_slist_append(headerList, line) }
        if let headerList { agg_curl_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList) }
        if request.method == .post {
            agg_curl_setopt_long(easy, CURLOPT_POST, 1)
            let body = request.body ?? Data()
            agg_curl_setopt_long(easy, CURLOPT_POSTFIELDSIZE, body.count)
            body.withUnsafeBytes { bytes in
                _ = agg_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            }
        }
        errorBuffer.withUnsafeMutableBufferPointer { buffer in
            _ = agg_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, buffer.baseAddress)
        }
        let context = Unmanaged.passUnretained(self).toOpaque()
        agg_curl_setopt_write_function(easy) { data, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.receiveBody(data!, size * count) ? size * count : 0
        }
        agg_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        agg_curl_setopt_header_function(easy) { data, size, count, context in
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(context!).takeUnretainedValue()
            transfer.receiveHeader(data!, size * count)
            return size * count
        }
        agg_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
    }

    deinit {
        agg_curl_easy_cleanup(easy)
        agg_curl_slist_free_all(headerList)
    }

    func attach(_ continuation: CheckedContinuation<HTTPResponse, any Error>) {
        self.continuation = continuation
    }

    func cancel() {
        cancelled.withLock { $0 = true }
    }

    var isCancelled: Bool { cancelled.withLock { $0 } }

    private func receiveBody(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Bool {
        if isCancelled { return false }
        if body.count + count > maximumSize {
            exceededSize = true
            return false
        }
        if body.isEmpty, let length = header("content-length").flatMap(Int.init), length > 0, length <= maximumSize {
            body.reserveCapacity(length)
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append($0, count: count) }
        return true
    }

    private func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) {
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: count), as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            headers = []
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingSpaces
        headers.append((name, value))
    }

    private func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Called by the loop when libcurl reports the transfer done with `code`.
    func finish(_ code: CURLcode) {
        guard let continuation else { return }
        self.continuation = nil
        let url = request.redact(request.url)
        if code == CURLE_OK {
            var status = 0
            agg_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
            var effective: UnsafeMutablePointer<CChar>?
            agg_curl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
            let finalURL = effective.map { String(cString: $0) } ?? request.url
            continuation.resume(returning: HTTPResponse(status: status, headers: headers, body: body, url: finalURL))
            return
        }
        let message = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).trimmingSpaces
        let detail = request.redact(message.isEmpty ? String(cString: agg_curl_easy_strerror(code)) : message)
        let kind: HTTPError.Kind
        switch code {
        case CURLE_OPERATION_TIMEDOUT: kind = .timeout
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: kind = .hostNotFound
        case CURLE_WRITE_ERROR where exceededSize: kind = .tooLarge
        case CURLE_WRITE_ERROR where isCancelled: kind = .cancelled
        default: kind = .connection
        }
        let text: String
        switch kind {
        case .tooLarge: text = "the response is larger than \(maximumSize / 1_048_576) MiB"
        case .cancelled: text = "cancelled"
        case .timeout: text = "timed out (\(detail))"
        default: text = detail
        }
        continuation.resume(throwing: HTTPError(kind: kind, url: url, detail: text))
    }
}
