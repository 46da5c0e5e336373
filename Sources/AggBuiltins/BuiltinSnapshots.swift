import AggCore
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The recorded responses bundled with agg (`Resources/Snapshots`, compiled into the binary),
/// one per built-in remote source, each with the day it was recorded. See
/// `Tests/Fixtures/PROVENANCE.md`.
public struct BuiltinSnapshots: BundledSnapshotProvider {
    /// The bundled snapshots.
    public init() {}

    public func snapshot(for source: String) -> BundledSnapshot? {
        guard let index = EmbeddedResources.files["Snapshots/snapshots.json"],
              let entry = try? JSONParser.parse(index)[source],
              let file = entry["file"]?.stringValue, let recorded = entry["recorded"]?.stringValue,
              let body = EmbeddedResources.files["Snapshots/" + file] else { return nil }
        return BundledSnapshot(body: Data(body.utf8), recorded: recorded)
    }
}
