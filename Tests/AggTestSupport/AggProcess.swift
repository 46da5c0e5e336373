import Foundation

/// Runs the built `agg` executable, the way a user would.
public enum AggProcess {
    /// What a run printed and how it ended.
    public struct Outcome: Sendable {
        /// The exit status.
        public var status: Int32
        /// Standard output.
        public var standardOutput: String
        /// Standard error.
        public var standardError: String
    }

    /// The `agg` binary in the build folder of the running tests.
    public static var executable: String {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("agg").path), directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        return directory.appendingPathComponent("agg").path
    }

    /// `agg arguments…` with exactly `environment` plus PATH, not started yet.
    static func makeProcess(_ arguments: [String], environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var fullEnvironment = environment
        fullEnvironment["PATH"] = fullEnvironment["PATH"] ?? ProcessInfo.processInfo.environment["PATH"]
        process.environment = fullEnvironment
        return process
    }

    /// Starts `agg arguments…` without waiting for it; output is discarded.
    public static func start(_ arguments: [String], environment: [String: String]) throws -> Process {
        let process = makeProcess(arguments, environment: environment)
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits for a process started with `start` without blocking a thread.
    public static func wait(for process: Process) async {
        while process.isRunning {
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
    }

    /// Runs `agg arguments…` in `directory` with exactly `environment` (plus PATH), feeding
    /// `input` on standard input. Output goes through files, so a chatty run cannot block, and
    /// the wait suspends instead of blocking a thread, so a fixture server in the same test
    /// process keeps answering.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:], in directory: String? = nil, input: String = ""
    ) async throws -> Outcome {
        let scratch = try TemporaryDirectory()
        defer { scratch.remove() }
        let outputPath = try scratch.write("stdout", "")
        let errorPath = try scratch.write("stderr", "")
        let inputPath = try scratch.write("stdin", input)
        let process = makeProcess(arguments, environment: environment)
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? scratch.path)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: inputPath))
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        return Outcome(
            status: process.terminationStatus,
            standardOutput: try String(contentsOfFile: outputPath, encoding: .utf8),
            standardError: try String(contentsOfFile: errorPath, encoding: .utf8))
    }
}
