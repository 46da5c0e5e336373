import ArgumentParser

/// The exit codes of `agg`. They are part of its interface: scripts rely on them, so a code
/// never changes meaning.
enum ExitStatus: Int32, CaseIterable {
    /// Success.
    case success = 0
    /// Success, but nothing matched.
    case noResults = 1
    /// The command line was wrong: an unknown option, source or field, a missing argument.
    case usage = 64
    /// A definition file is invalid.
    case definition = 65
    /// The network or the source failed and no usable data was stored.
    case unavailable = 69
    /// Something inside agg went wrong that should not have.
    case internalError = 70
    /// The store could not be read or written.
    case storage = 74
    /// The environment lacks something a source needs (a secret such as FLICKR_API_KEY).
    case configuration = 78

    var meaning: String {
        switch self {
        case .success: "success"
        case .noResults: "success, but nothing matched"
        case .usage: "usage error (bad option, unknown source, missing argument)"
        case .definition: "invalid definition file"
        case .unavailable: "network or source failure with no usable stored data"
        case .internalError: "internal error"
        case .storage: "the store could not be read or written"
        case .configuration: "missing configuration, such as a secret in the environment"
        }
    }

    /// One line a code, for `--help`.
    static var helpText: String {
        allCases.map { status in
            let code = String(status.rawValue)
            return "  \(code)\(String(repeating: " ", count: max(0, 3 - code.count))) \(status.meaning)"
        }
            .joined(separator: "\n")
    }

    /// The `ExitCode` to throw.
    var code: ExitCode { ExitCode(rawValue) }
}

/// An error the command line reports with its message and a stable exit code.
struct CommandFailure: Error {
    var message: String
    var status: ExitStatus

    init(_ message: String, _ status: ExitStatus) {
        self.message = message
        self.status = status
    }
}
