import ArgumentParser

/// `SOURCE KEY`: the record a command is about.
struct RecordArguments: ParsableArguments {
    @Argument(help: "The source.")
    var source: String

    @Argument(help: "The record's key (local-N for your own records).")
    var key: String
}
