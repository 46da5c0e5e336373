#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Walks a source's pages as its definition declares, fetching through `HTTPClient` and
/// handing each decoded page, in order, to `deliver`. Guards: a page limit, a repeated page
/// (same URL, cursor or content) and an empty page all stop the walk.
struct PageWalker {
    let definition: SourceDefinition
    let request: ResolvedRequest
    let pipeline: RecordPipeline
    let client: HTTPClient
    let options: SyncOptions
    /// The total pages stored from an earlier sync, for `--page random`.
    let storedTotalPages: Int?

    /// What the walk found out, beyond the records.
    struct Outcome {
        var stopReason: StopReason
        var pages = 0
        var bytes = 0
        var totalPages: Int?
        var currentPage: Int?
        var warnings: [String] = []
    }

    /// One fetched and decoded page: its records, and what the walk needs from its document,
    /// read in the decoding task so that the document is freed there.
    struct FetchedPage: Sendable {
        var records: [RemoteRecord]
        var warnings: [String]
        var skipped: Int
        var bytes: Int
        var url: String
        /// The number of records the source says it has (offset pagination with a total).
        var reportedTotal: Int?
        /// The number of pages the source says it has (page pagination with a total).
        var reportedPages: Int?
        /// The link to the next page (next-link pagination).
        var nextLink: String?
        /// What identifies the page's content: its records' keys, or for a page without
        /// records its whole document.
        var identity: [String]

        /// True when the page has no records, not even unreadable ones.
        var isEmpty: Bool { records.isEmpty && skipped == 0 }
    }

    func fetch(_ url: String) async throws -> FetchedPage {
        let httpRequest = HTTPRequest(url: url, method: request.method, headers: request.headers,
                                      body: request.body.map { Data($0.utf8) }, secrets: request.secretValues)
        let response = try await client.send(httpRequest)
        let page = try pipeline.page(from: response.body)
        var fetched = FetchedPage(
            records: page.records, warnings: page.warnings, skipped: page.skipped, bytes: response.body.count, url: url,
            identity: page.records.isEmpty ? [JSONWriter.string(page.document)] : page.records.map(\.key))
        switch definition.pagination {
        case .offset(let paging): fetched.reportedTotal = paging.total.flatMap { $0.value(in: page.document) }?.intValue
        case .page(let paging): fetched.reportedPages = paging.totalPages.flatMap { $0.value(in: page.document) }?.intValue
        case .next(let paging): fetched.nextLink = paging.next.value(in: page.document)?.stringValue
        case .none: break
        }
        return fetched
    }

    /// Delivers `page` and counts it, unless it repeats the page before (`previous`): then it
    /// records `warning`, marks the walk as stopped by a repeated page, and returns false.
    private func take(
        _ page: FetchedPage, previous: inout [String]?, outcome: inout Outcome, warning: @autoclosure () -> String,
        deliver: (FetchedPage) async throws -> Void
    ) async throws -> Bool {
        if page.identity == previous {
            outcome.warnings.append(warning())
            outcome.stopReason = .repeatedPage
            return false
        }
        previous = page.identity
        try await deliver(page)
        outcome.pages += 1
        outcome.bytes += page.bytes
        return true
    }

    /// `url` with `name=value` set in its query (replacing an earlier value).
    static func setting(_ name: String, _ value: String, in url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        var items = components.percentEncodedQueryItems ?? []
        items.removeAll { $0.name == name }
        items.append(URLQueryItem(name: URLEncoding.queryComponent(name), value: URLEncoding.queryComponent(value)))
        components.percentEncodedQueryItems = items
        return components.string ?? url
    }

    func walk(deliver: (FetchedPage) async throws -> Void) async throws -> Outcome {
        switch definition.pagination {
        case .none:
            let page = try await fetch(request.url)
            try await deliver(page)
            return Outcome(stopReason: .singleDocument, pages: 1, bytes: page.bytes)
        case .offset(let offset):
            return try await walkOffsets(offset, deliver: deliver)
        case .page(let paging):
            return try await walkPages(paging, deliver: deliver)
        case .next(let next):
            return try await walkNextLinks(next, deliver: deliver)
        }
    }

    private func walkOffsets(_ paging: OffsetPagination, deliver: (FetchedPage) async throws -> Void) async throws -> Outcome {
        func url(offset: Int) -> String {
            Self.setting(paging.offsetParameter, String(offset), in: Self.setting(paging.limitParameter, String(paging.limit), in: request.url))
        }
        let first = try await fetch(url(offset: 0))
        try await deliver(first)
        var outcome = Outcome(stopReason: .lastPage, pages: 1, bytes: first.bytes)
        if first.isEmpty { outcome.stopReason = .emptyPage; return outcome }
        if let total = first.reportedTotal {
            let needed = max(1, (total + paging.limit - 1) / paging.limit)
            outcome.totalPages = needed
            let pages = min(needed, paging.maximumPages)
            outcome.stopReason = pages < needed ? .pageLimit : .totalReached
            if pages < needed { outcome.warnings.append("stopped after \(pages) pages (max_pages); the source has \(needed)") }
            var previous: [String]? = first.identity
            try await fetchConcurrently(offsets: (1..<pages).map { $0 * paging.limit }, url: url) { page in
                let warning = repeatWarning(outcome.pages + 1, paging.offsetParameter)
                return try await take(page, previous: &previous, outcome: &outcome, warning: warning, deliver: deliver)
            }
            return outcome
        }
        var previous: [String]? = first.identity
        var last = first
        while true {
            if last.records.count + last.skipped < paging.limit { outcome.stopReason = .shortPage; return outcome }
            if outcome.pages >= paging.maximumPages { outcome.stopReason = .pageLimit; return outcome }
            let page = try await fetch(url(offset: outcome.pages * paging.limit))
            if page.isEmpty { outcome.stopReason = .emptyPage; return outcome }
            let warning = repeatWarning(outcome.pages + 1, paging.offsetParameter)
            guard try await take(page, previous: &previous, outcome: &outcome, warning: warning, deliver: deliver) else {
                return outcome
            }
            last = page
        }
    }

    /// The warning for a page that repeats the one before.
    private func repeatWarning(_ number: Int, _ parameter: String) -> String {
        "page \(number) repeats the page before it (does the server ignore '\(parameter)'?); stopped"
    }

    /// Fetches `offsets` with up to `options.pageConcurrency` requests in flight, handing the
    /// pages to `handle` in order; `handle` returning false stops the walk.
    private func fetchConcurrently(offsets: [Int], url: (Int) -> String, handle: (FetchedPage) async throws -> Bool) async throws {
        guard !offsets.isEmpty else { return }
        let urls = offsets.map(url)
        let window = max(1, options.pageConcurrency)
        try await withThrowingTaskGroup(of: (Int, FetchedPage).self) { group in
            var nextToStart = 0
            var nextToHandle = 0
            var ready: [Int: FetchedPage] = [:]
            while nextToStart < min(window, urls.count) {
                let index = nextToStart
                group.addTask { (index, try await fetch(urls[index])) }
                nextToStart += 1
            }
            while nextToHandle < urls.count, let (index, page) = try await group.next() {
                ready[index] = page
                while let page = ready.removeValue(forKey: nextToHandle) {
                    guard try await handle(page) else {
                        group.cancelAll()
                        return
                    }
                    nextToHandle += 1
                    if nextToStart < urls.count {
                        let index = nextToStart
                        group.addTask { (index, try await fetch(urls[index])) }
                        nextToStart += 1
                    }
                }
            }
        }
    }

    private func walkPages(_ paging: PagePagination, deliver: (FetchedPage) async throws -> Void) async throws -> Outcome {
        func url(_ number: Int) -> String {
            var url = Self.setting(paging.pageParameter, String(number), in: request.url)
            if let size = paging.size, let parameter = paging.sizeParameter { url = Self.setting(parameter, String(size), in: url) }
            return url
        }
        if let selection = options.page {
            var number: Int
            var outcome = Outcome(stopReason: .requestedPage)
            switch selection {
            case .number(let requested):
                number = requested
            case .random:
                var total = storedTotalPages
                if total == nil {
                    let first = try await fetch(url(paging.firstPage))
                    outcome.bytes += first.bytes
                    total = first.reportedPages
                }
                number = Int.random(in: paging.firstPage...max(paging.firstPage, (total ?? 1) + paging.firstPage - 1))
            }
            let page = try await fetch(url(number))
            try await deliver(page)
            outcome.pages = 1
            outcome.bytes += page.bytes
            outcome.totalPages = page.reportedPages
            outcome.currentPage = number
            return outcome
        }
        var outcome = Outcome(stopReason: .lastPage)
        var number = paging.firstPage
        var previous: [String]?
        while true {
            let page = try await fetch(url(number))
            if page.isEmpty {
                outcome.stopReason = .emptyPage
                if outcome.pages == 0 { try await deliver(page); outcome.currentPage = number }
                return outcome
            }
            guard try await take(page, previous: &previous, outcome: &outcome, warning: repeatWarning(number, paging.pageParameter), deliver: deliver) else {
                return outcome
            }
            outcome.currentPage = number
            if let total = page.reportedPages { outcome.totalPages = total }
            if let total = outcome.totalPages, number - paging.firstPage + 1 >= total { outcome.stopReason = .totalReached; return outcome }
            if outcome.pages >= paging.maximumPages { outcome.stopReason = .pageLimit; return outcome }
            number += 1
        }
    }

    private func walkNextLinks(_ paging: NextPagination, deliver: (FetchedPage) async throws -> Void) async throws -> Outcome {
        var outcome = Outcome(stopReason: .lastPage)
        var url = request.url
        var seenURLs: Set<String> = []
        var previous: [String]?
        while true {
            seenURLs.insert(url)
            let page = try await fetch(url)
            if page.isEmpty && outcome.pages > 0 {
                outcome.stopReason = .emptyPage
                return outcome
            }
            guard try await take(page, previous: &previous, outcome: &outcome, warning: "the page at \(request.redact(url)) repeats the page before it; stopped", deliver: deliver) else {
                return outcome
            }
            guard let next = page.nextLink, !next.isEmpty else {
                outcome.stopReason = .lastPage
                return outcome
            }
            guard let resolved = URL(string: next, relativeTo: URL(string: page.url))?.absoluteString else {
                outcome.warnings.append("cannot read the next page's URL '\(request.redact(next))'; stopped")
                return outcome
            }
            if seenURLs.contains(resolved) {
                outcome.warnings.append("the next link points back to \(request.redact(resolved)), which was already fetched; stopped")
                outcome.stopReason = .repeatedPage
                return outcome
            }
            if outcome.pages >= paging.maximumPages {
                outcome.warnings.append("stopped after \(outcome.pages) pages (max_pages) although the source has more")
                outcome.stopReason = .pageLimit
                return outcome
            }
            url = resolved
        }
    }
}
