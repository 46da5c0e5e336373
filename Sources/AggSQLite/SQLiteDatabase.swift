import AggCore
internal import CSQLite
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A value bound to or read from SQLite.
enum SQLiteValue {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case textBytes([UInt8])
    case blob(Data)
}

/// One SQLite connection. It owns the C handle for its lifetime; every SQLite return code
/// becomes a Swift error in `check`, and nowhere else. Not thread-safe: its owner serialises
/// access.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    let path: String

    /// How a connection is used.
    enum Mode {
        /// The shared store: WAL, so readers are never blocked and processes can share it.
        case shared
        /// A private file written by one snapshot writer: no journal, no syncing until the
        /// writer flushes it, since nobody reads it before it is committed.
        case privateBulk
        /// Reading a committed snapshot file.
        case readOnly
    }

    /// Opens the database at `path` (creating it unless read-only), waiting up to 30 s for
    /// other writers. New databases get 16 KiB pages, as records are a few kilobytes each.
    init(path: String, mode: Mode = .shared) throws {
        self.path = path
        let access = mode == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        let code = sqlite3_open_v2(path, &handle, access | SQLITE_OPEN_NOMUTEX, nil)
        if code != SQLITE_OK {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            handle = nil
            throw StoreError(.backend, "cannot open the SQLite store at \(path): \(message); check that its folder exists and can be written, or choose another place with --store sqlite:PATH or AGG_STORE")
        }
        sqlite3_busy_timeout(handle, 30_000)
        switch mode {
        case .shared:
            try execute("PRAGMA page_size = 16384; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA journal_size_limit = 4194304")
            // Keep the -wal and -shm files when the last connection closes: otherwise every
            // command, a query too, creates both, lays out the -shm index and deletes them
            // again. The size limit above truncates a log that a large transaction grew, after
            // checkpoints.
            var persist: Int32 = 1
            try check(sqlite3_file_control(handle, "main", SQLITE_FCNTL_PERSIST_WAL, &persist), "keeping the write-ahead log")
        case .privateBulk:
            try execute("PRAGMA page_size = 16384; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -4096")
        case .readOnly:
            try execute("PRAGMA query_only = ON; PRAGMA mmap_size = 17179869184")
        }
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    /// Turns a SQLite result code into a `StoreError`.
    @discardableResult
    func check(_ code: Int32, _ what: @autoclosure () -> String) throws -> Int32 {
        switch code {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE:
            return code
        case SQLITE_BUSY, SQLITE_LOCKED:
            throw StoreError(.backend, "the SQLite store at \(path) stayed locked by another process for 30 s (\(what()))")
        default:
            let message = String(cString: sqlite3_errmsg(handle))
            throw StoreError(.backend, "SQLite store \(path): \(what()) failed: \(message)")
        }
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql)
    }

    /// Compiles a statement.
    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        try check(sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil), "preparing \(sql)")
        return SQLiteStatement(statement: statement!, database: self)
    }

    /// Runs `body` in a transaction: `BEGIN IMMEDIATE` for writes (taking the write lock at
    /// once, so writers queue instead of failing), `BEGIN` for reads. Commits when `body`
    /// returns, rolls back when it throws.
    func transaction<T>(writing: Bool, _ body: () throws -> T) throws -> T {
        try execute(writing ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The `user_version` pragma, used for migrations.
    var userVersion: Int {
        get throws {
            let statement = try prepare("PRAGMA user_version")
            _ = try statement.step()
            return Int(statement.integer(0))
        }
    }
}

/// A compiled statement of a `SQLiteDatabase`.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit {
        sqlite3_finalize(statement)
    }

    /// Resets the statement and binds `values` to its parameters in order; SQLite keeps its
    /// own copies of text and blobs, so the statement can be stepped later.
    @discardableResult
    func bind(_ values: [SQLiteValue]) throws -> SQLiteStatement {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            try bind(value, at: Int32(offset + 1), copying: true) {}
        }
        return self
    }

    /// Runs the statement to completion with `values` bound without copying: SQLite reads
    /// text and blobs straight from Swift's buffers, which stay valid until the statement
    /// is reset and its bindings cleared, before this returns. For bulk inserts, where
    /// `bind(_:)`'s copies (one allocation and one copy per value) add up.
    func run(borrowing values: [SQLiteValue]) throws {
        sqlite3_reset(statement)
        func bindAll(from offset: Int) throws {
            guard offset < values.count else {
                defer {
                    sqlite3_reset(statement)
                    sqlite3_clear_bindings(statement)
                }
                return try run()
            }
            try bind(values[offset], at: Int32(offset + 1), copying: false) { try bindAll(from: offset + 1) }
        }
        try bindAll(from: 0)
    }

    /// Binds `value` at `index` and runs `whileBound` while its bytes are valid. With
    /// `copying`, SQLite copies text and blobs; without, it reads them in place, so the
    /// statement must be done with them before `whileBound` returns. Empty text is bound as
    /// empty text (its buffer may have no address), not as NULL.
    private func bind(_ value: SQLiteValue, at index: Int32, copying: Bool, _ whileBound: () throws -> Void) throws {
        let destructor = copying ? agg_sqlite_transient() : nil
        func bindText(_ bytes: UnsafeBufferPointer<UInt8>) throws {
            let code = if let base = bytes.baseAddress {
                sqlite3_bind_text(statement, index, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(bytes.count), destructor)
            } else {
                sqlite3_bind_text(statement, index, "", 0, nil)
            }
            try database.check(code, "binding a value")
            try whileBound()
        }
        switch value {
        case .null:
            try database.check(sqlite3_bind_null(statement, index), "binding a value")
        case .integer(let number):
            try database.check(sqlite3_bind_int64(statement, index, number), "binding a value")
        case .real(let number):
            try database.check(sqlite3_bind_double(statement, index, number), "binding a value")
        case .text(var text):
            return try text.withUTF8(bindText)
        case .textBytes(let bytes):
            return try bytes.withUnsafeBufferPointer(bindText)
        case .blob(let data):
            return try data.withUnsafeBytes { buffer in
                try database.check(sqlite3_bind_blob(statement, index, buffer.baseAddress, Int32(buffer.count), destructor), "binding a value")
                try whileBound()
            }
        }
        try whileBound()
    }

    /// Steps once: true when a row is available.
    func step() throws -> Bool {
        try database.check(sqlite3_step(statement), "running a statement") == SQLITE_ROW
    }

    /// Steps until done.
    func run() throws {
        while try step() {}
    }

    func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
    func integer(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
    func real(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }

    func text(_ column: Int32) -> String? {
        guard let pointer = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// The column's bytes without copying them into a String (for JSON parsing).
    func withBytes<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T? {
        guard let pointer = sqlite3_column_blob(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return try body(UnsafeBufferPointer(start: pointer.assumingMemoryBound(to: UInt8.self), count: count))
    }

    func blob(_ column: Int32) -> Data? {
        withBytes(column) { Data($0) }
    }
}
