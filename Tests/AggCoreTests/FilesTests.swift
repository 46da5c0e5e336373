@testable import AggCore
import AggTestSupport
import Foundation
import Testing

@Suite struct FilesTests {
    @Test func pathPartsAreSplitAsNSStringSplitsThem() {
        for path in ["/a/b/c.db", "/c.db", "c.db", "a/b", "/a/b/", "/", "", "a//b"] {
            #expect(path.parentFolderPath == (path as NSString).deletingLastPathComponent, "\(path)")
            #expect(path.lastPathComponentName == (path as NSString).lastPathComponent, "\(path)")
        }
    }

    @Test func fileSizeIsReadForFilesAndNilForMissingOnes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = try folder.write("three.txt", "abc")
        #expect(FileManager.default.fileSize(atPath: file) == 3)
        #expect(FileManager.default.fileSize(atPath: folder.path + "/missing") == nil)
    }

    /// A terabyte-sized (sparse) file is refused by its size; reading it first would fail.
    @Test func anOversizedImageFileIsRefusedBeforeItIsRead() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = try folder.write("huge.png", "")
        #expect(truncate(file, 1 << 40) == 0)
        let error = #expect(throws: InputError.self) { try Aggregator.blob(.file(file)) }
        #expect(error?.description == "\(file) is 1048576.0 MiB; images are limited to 20 MiB")
    }

    @Test func anOpenFileWritesEverythingAndClosesOnce() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let path = folder.path + "/out.ndjson"
        let file = try OpenFile(path: path, mode: .writingFromStart)
        let line = Array(repeating: UInt8(ascii: "x"), count: 300_000) + [UInt8(ascii: "\n")]
        try file.write(line)
        try file.write(line)
        try file.synchronize()
        try file.close()
        try file.close()
        #expect(FileManager.default.fileSize(atPath: path) == 600_002)
        #expect(throws: StoreError.self) { try OpenFile(path: folder.path + "/missing/out", mode: .writingFromStart) }
    }

    @Test func fileErrorsReadAsTheSystemSaysThem() throws {
        let error = #expect(throws: (any Error).self) {
            try Data([1]).write(to: URL(fileURLWithPath: "/nonexistent-agg-folder/file"))
        }
        #expect(error.map(SystemErrorText.describe) == "No such file or directory")
        #expect(SystemErrorText.describe(errno: ENOSPC) == "No space left on device")
    }
}
