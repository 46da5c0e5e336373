@testable import AggSQLite
import AggTestSupport
import Foundation
import Testing

@Suite struct SQLiteStatementTests {
    /// Values bound without copying arrive exactly as bound, empty text as text, not NULL.
    @Test func valuesBoundWithoutCopyingArriveIntact() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let database = try SQLiteDatabase(path: folder.path + "/t.sqlite", mode: .privateBulk)
        try database.execute("CREATE TABLE t (a, b, c, d, e, f)")
        let insert = try database.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)")
        let long = Array(String(repeating: "大貓熊 ", count: 2000).utf8)
        try insert.run(borrowing: [.text(""), .textBytes([]), .null, .textBytes(long), .integer(7), .blob(Data([0, 1, 2]))])
        try insert.run(borrowing: [.text("second"), .textBytes(Array("x".utf8)), .real(1.5), .null, .integer(8), .null])
        let select = try database.prepare("SELECT typeof(a), typeof(b), typeof(c), d, e, hex(f), a, c FROM t ORDER BY e")
        #expect(try select.step())
        #expect([select.text(0), select.text(1), select.text(2)] == ["text", "text", "null"])
        #expect(select.text(3).map { Array($0.utf8) } == long)
        #expect(select.integer(4) == 7)
        #expect(select.text(5) == "000102")
        #expect(try select.step())
        #expect(select.text(6) == "second")
        #expect(select.real(7) == 1.5)
        #expect(try !select.step())
    }

    /// Copied bindings, for statements stepped later, treat empty text the same way.
    @Test func copiedBindingsKeepEmptyTextAsText() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let database = try SQLiteDatabase(path: folder.path + "/t.sqlite", mode: .privateBulk)
        try database.execute("CREATE TABLE t (a, b)")
        try database.prepare("INSERT INTO t VALUES (?, ?)").bind([.textBytes([]), .text("大")]).run()
        let select = try database.prepare("SELECT typeof(a), b FROM t")
        #expect(try select.step())
        #expect(select.text(0) == "text")
        #expect(select.text(1) == "大")
    }
}
