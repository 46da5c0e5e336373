import Foundation

/// The recorded API payloads copied into `Tests/Fixtures` (see its PROVENANCE.md).
public enum Fixtures {
    /// The `Tests/Fixtures` folder of this checkout.
    public static let directory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").path
    }()

    /// The bytes of `Tests/Fixtures/<path>`.
    public static func data(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: directory + "/" + path))
    }

    /// Every fixture file below `folder` (such as `taipei-zoo`), sorted.
    public static func files(in folder: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory + "/" + folder)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder + "/" + $0 }
    }

    /// The full 313-record zoo payload.
    public static let fullZoo = "taipei-zoo/v1-animals-rid6afa114d-full313-2026-03_LEO0331-taipei-zoo-guide.json"
}
