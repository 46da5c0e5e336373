import Foundation

/// Where the built-in resources (`sources.yaml`, `Snapshots/`) are installed.
enum BuiltinResources {
    /// The `Resources` folder of this module's resource bundle.
    ///
    /// SwiftPM installs the bundle next to the executable, so that is looked at first,
    /// directly: creating `Bundle.module` (and with it `Bundle.main`) takes about half a
    /// millisecond, a noticeable part of a short command. Anywhere else, `Bundle.module`
    /// knows.
    static let folder: String = {
        #if os(Linux)
        if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let folder = (executable as NSString).deletingLastPathComponent + "/agg_AggBuiltins.resources/Resources"
            if FileManager.default.fileExists(atPath: folder) { return folder }
        }
        #endif
        return Bundle.module.bundlePath + "/Resources"
    }()
}
