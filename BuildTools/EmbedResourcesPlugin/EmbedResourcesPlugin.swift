import Foundation
import PackagePlugin

/// Embeds every file under a target's `Resources/` folder into the target's code, as
/// `EmbeddedResources.files` (see the `EmbedResources` tool).
@main
struct EmbedResourcesPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let root = target.directoryURL.appending(path: "Resources")
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        var files: [URL] = []
        while let file = enumerator?.nextObject() as? URL {
            if try file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true { files.append(file) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedResources.swift")
        return [
            .buildCommand(
                displayName: "Embedding the resources of \(target.name)",
                executable: try context.tool(named: "EmbedResources").url,
                arguments: [output.path, root.path] + files.map(\.path),
                inputFiles: files,
                outputFiles: [output]),
        ]
    }
}
