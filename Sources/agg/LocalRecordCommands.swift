import AggCore
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `agg insert SOURCE field=value… [--image FILE]`.
struct InsertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insert",
        abstract: "Add your own record to a source, kept beside the remote ones.",
        discussion: """
            The record gets the next sequence number of the source and the key local-N. It is \
            listed first (newest first) and no sync ever touches it.

            Examples:
              agg insert zoo name=石虎 --image ./cat.jpg
              agg insert faces name=Ada --image ./ada.png
            """
    )

    @OptionGroup var global: GlobalOptions

    @Argument(help: "The source.")
    var source: String

    @Argument(help: "Fields as name=value.")
    var fields: [String] = []

    @Option(help: ArgumentHelp("An image file (JPEG, PNG, GIF or WebP), stored with the record.", valueName: "FILE"))
    var image: String?

    func validate() throws {
        _ = try FieldAssignments.parse(fields)
    }

    func run() async throws {
        try await reportingFailures {
            let aggregator = try global.makeAggregator()
            let record = try await aggregator.insert(
                into: source, fields: try FieldAssignments.parse(fields), image: image.map(ImageInput.file))
            print("inserted \(source)/\(record.key)")
        }
    }
}

/// `agg update SOURCE KEY field=value…`.
struct UpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Change fields of one of your own records (field= with no value removes it).",
        discussion: "Example:\n  agg update faces local-2 name=Grace"
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var target: RecordArguments

    @Argument(help: "Fields as name=value.")
    var fields: [String] = []

    func validate() throws {
        if fields.isEmpty { throw ValidationError("give at least one field=value to change") }
        _ = try FieldAssignments.parse(fields)
    }

    func run() async throws {
        try await reportingFailures {
            let (source, key) = (target.source, target.key)
            let aggregator = try global.makeAggregator()
            let record = try await aggregator.update(in: source, key: key, fields: try FieldAssignments.parse(fields))
            print("updated \(source)/\(record.key)")
        }
    }
}

/// `agg delete SOURCE KEY [--yes]`.
struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete one of your own records.",
        discussion: "Asks for confirmation on a terminal; --yes skips the question (and is required when input is not a terminal)."
    )

    @OptionGroup var global: GlobalOptions

    @OptionGroup var target: RecordArguments

    @Flag(name: [.short, .long], help: "Delete without asking.")
    var yes = false

    func run() async throws {
        try await reportingFailures {
            let (source, key) = (target.source, target.key)
            let aggregator = try global.makeAggregator()
            let definition = try aggregator.source(named: source)
            let collection = CollectionID(source: source)
            guard let record = try await aggregator.store.record(key: key, in: collection) else {
                throw StoreError.notFound(source: source, key: key)
            }
            guard record.origin == .local else {
                throw StoreError.notLocal(source: source, key: key)
            }
            if !yes {
                guard Terminal.standardInputIsTerminal else {
                    throw CommandFailure("not deleting \(source)/\(key) without confirmation; add --yes", .usage)
                }
                let label = definition.search.flatMap { record.fields[$0]?.textValue }.map { " (\($0))" } ?? ""
                Terminal.printError("Delete \(source)/\(key)\(label)? [y/N] ", newline: false)
                guard let answer = readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                    Terminal.printError("not deleted")
                    return
                }
            }
            _ = try await aggregator.delete(from: source, key: key)
            print("deleted \(source)/\(key)")
        }
    }
}
