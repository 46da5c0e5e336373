import AggCore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `agg images fetch|path|prune`.
struct ImagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "images",
        abstract: "Download, locate and prune record images in the cache ($XDG_CACHE_HOME/agg/images).",
        subcommands: [Fetch.self, Path.self, Prune.self]
    )

    struct Fetch: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "fetch",
            abstract: "Download the images of a source's records (those a query matches) into the cache.",
            discussion: """
                Images already cached are not downloaded again; --refresh revalidates them with \
                their ETag and Last-Modified. Only real images are kept (JPEG, PNG, GIF, WebP).

                Examples:
                  agg images fetch pokemon
                  agg images fetch zoo --prefix 大 --jobs 4
                """
        )

        @OptionGroup var global: GlobalOptions
        @OptionGroup var filters: QueryOptions

        @Argument(help: "The source.")
        var source: String

        @OptionGroup var parameters: ParameterOptions

        @Option(help: "Downloads at once.")
        var jobs = 8

        @Flag(help: "Revalidate images already cached.")
        var refresh = false

        func validate() throws {
            guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64") }
        }

        func run() async throws {
            try await reportingFailures {
                let aggregator = try global.makeAggregator()
                let definition = try aggregator.source(named: source)
                let given = try parameters.values
                let collection = try aggregator.collection(of: definition, parameters: given)
                let query = try filters.query(for: definition, collection: collection)
                try await DataPreparation.prepare(collection, with: aggregator, freshness: .automatic, parameters: given, origin: query.origin)
                let urls = try await aggregator.imageURLs(matching: query)
                if urls.isEmpty, try await UnknownFieldCheck(named: query.namedFields).report(collection, with: aggregator) {
                    throw ExitStatus.usage.code
                }
                var configuration = aggregator.httpConfiguration
                configuration.maximumConcurrentTransfers = jobs
                configuration.maximumResponseSize = ImageFormat.maximumSize
                configuration.retry.maximumAttempts = 2
                let progress = ProgressLine()
                let report = await HTTPClient.withHTTPClient(configuration) { client in
                    await global.imageCache.fetch(urls, client: client, refresh: refresh) { step in
                        let rate = step.elapsed > 0 ? Int(Double(step.bytes) / step.elapsed) : 0
                        progress.update("images: \(step.done)/\(step.total), \(ByteCount.format(step.bytes)), \(ByteCount.format(rate))/s", force: step.done == step.total)
                    }
                }
                progress.clear()
                for failure in report.failures.prefix(10) { Terminal.printError("agg: \(failure.url): \(failure.reason)") }
                if report.failures.count > 10 { Terminal.printError("agg: … and \(report.failures.count - 10) more failures") }
                print(report.summary)
                if !report.failures.isEmpty, report.fetched + report.alreadyCached + report.revalidated == 0 {
                    throw ExitStatus.unavailable.code
                }
            }
        }
    }

    struct Path: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "path",
            abstract: "Print the file of a record's image, for scripts to open.",
            discussion: "Exits 1 when the image is not cached yet (agg images fetch downloads it)."
        )

        @OptionGroup var global: GlobalOptions

        @OptionGroup var target: RecordArguments

        @OptionGroup var parameters: ParameterOptions

        func run() async throws {
            try await reportingFailures {
                let (source, key) = (target.source, target.key)
                let aggregator = try global.makeAggregator()
                guard let record = try await aggregator.record(key: key, of: source, parameters: try parameters.values) else {
                    throw StoreError.notFound(source: source, key: key)
                }
                guard record.image != nil else {
                    Terminal.printError("agg: \(source)/\(key) has no image")
                    throw ExitStatus.noResults.code
                }
                guard let path = try await aggregator.imagePath(of: record, in: global.imageCache) else {
                    Terminal.printError("agg: the image of \(source)/\(key) is not cached yet; run 'agg images fetch \(source)'")
                    throw ExitStatus.noResults.code
                }
                print(path)
            }
        }
    }

    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "prune", abstract: "Delete cached images that no stored record refers to.")

        @OptionGroup var global: GlobalOptions

        func run() async throws {
            try await reportingFailures {
                let aggregator = try global.makeAggregator()
                let referenced = try await aggregator.referencedImages()
                let report = global.imageCache.prune(referencedURLs: referenced.urls, referencedBlobs: referenced.blobs)
                print("pruned \(report.files) image\(report.files == 1 ? "" : "s") and \(report.entries) index entr\(report.entries == 1 ? "y" : "ies"); freed \(ByteCount.format(report.bytes))")
            }
        }
    }
}
