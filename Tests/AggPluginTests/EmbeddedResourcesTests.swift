@testable import AggBuiltins
import Foundation
import Testing

/// The build tool compiles every file under `Sources/AggBuiltins/Resources` into the binary
/// as a string literal; each must come back exactly as the file holds it.
@Suite struct EmbeddedResourcesTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/AggBuiltins/Resources").path

    @Test func everyResourceIsEmbeddedByteForByte() throws {
        let names = try FileManager.default.subpathsOfDirectory(atPath: Self.folder).filter { name in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: Self.folder + "/" + name, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
        #expect(Set(EmbeddedResources.files.keys) == Set(names))
        for name in names {
            let file = try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name))
            #expect(EmbeddedResources.files[name].map { Data($0.utf8) } == file, "\(name)")
        }
        #expect(names.contains("sources.yaml") && names.contains("Snapshots/zoo.json"))
    }
}
