#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a store keeps open while it writes a snapshot: a descriptor, closed exactly once
/// (by `close()` or at the latest when the value goes away).
package final class OpenFile: @unchecked Sendable {
    /// How the file is opened.
    package enum Mode: Sendable {
        /// For reading (enough to flush the file's data to disk).
        case reading
        /// For writing, created or emptied.
        case writingFromStart
    }

    /// The descriptor, valid until `close()`.
    package let descriptor: Int32
    private let path: String
    private var isClosed = false

    /// Opens `path`.
    package init(path: String, mode: Mode) throws {
        let descriptor = switch mode {
        case .reading: open(path, O_RDONLY | O_CLOEXEC)
        case .writingFromStart: open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        }
        guard descriptor >= 0 else { throw Self.failure("cannot open", path) }
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        if !isClosed { _ = closeDescriptor(descriptor) }
    }

    /// Writes all of `bytes` at the current position.
    package func write(_ bytes: [UInt8]) throws {
        if let code = bytes.withUnsafeBytes({ Self.writeAll($0, to: descriptor) }) {
            throw StoreError(.backend, "cannot write \(path): \(SystemErrorText.describe(errno: code))")
        }
    }

    /// Writes all of `bytes` to `descriptor`, going on after partial writes and interruptions;
    /// the `errno` of a failure, or nil.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32? {
        var written = 0
        while written < bytes.count {
            let result = writeDescriptor(descriptor, bytes.baseAddress! + written, bytes.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return errno
            }
            written += result
        }
        return nil
    }

    /// Waits until the file's data and metadata are on disk.
    package func synchronize() throws {
        guard fsync(descriptor) == 0 else { throw Self.failure("cannot write", path) }
    }

    /// Waits until the file's data is on disk (its metadata may follow later, with
    /// `synchronize()`), which is cheaper where the system can tell the two apart.
    package func synchronizeData() throws {
        #if os(Linux)
        let result = fdatasync(descriptor)
        #else
        let result = fsync(descriptor)
        #endif
        guard result == 0 else { throw Self.failure("cannot write", path) }
    }

    /// Closes the descriptor; later calls do nothing.
    package func close() throws {
        guard !isClosed else { return }
        isClosed = true
        guard closeDescriptor(descriptor) == 0 else { throw Self.failure("cannot close", path) }
    }

    private static func failure(_ what: String, _ path: String) -> StoreError {
        StoreError(.backend, "\(what) \(path): \(SystemErrorText.describe(errno: errno))")
    }
}

// The C functions, under names that the methods above do not hide.
private func closeDescriptor(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func writeDescriptor(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, bytes, count) }
