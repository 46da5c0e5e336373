import AggCore
import Foundation

/// The recorded responses bundled with agg (`Resources/Snapshots`), one per built-in remote
/// source, each with the day it was recorded. See `Tests/Fixtures/PROVENANCE.md`.
public struct BuiltinSnapshots: BundledSnapshotProvider {
    /// The bundled snapshots.
    public init() {}

    public func snapshot(for source: String) -> BundledSnapshot? {
        let folder = BuiltinResources.folder + "/Snapshots"
        guard let index = FileManager.default.contents(atPath: folder + "/snapshots.json"),
              let entry = try? JSONParser.parse(index)[source],
              let file = entry["file"]?.stringValue, let recorded = entry["recorded"]?.stringValue,
              let body = FileManager.default.contents(atPath: folder + "/" + file) else { return nil }
        return BundledSnapshot(body: body, recorded: recorded)
    }
}
