import AggCore
import FlickrDecoder
import Foundation
import PokemonDecoder
import TaipeiMetroDecoder
import TaipeiZooDecoder

/// The standard assembly of agg: the built-in definitions that ship with the package, and the
/// decoder plug-ins. The `agg` executable uses it; a tool embedding `AggCore` may use it or
/// assemble its own.
public enum Builtins {
    /// The path of the built-in `sources.yaml` inside the installed resource bundle.
    public static var sourcesFile: String? {
        let path = BuiltinResources.folder + "/sources.yaml"
        return FileManager.default.fileExists(atPath: path) ? path : nil
    }

    /// Every decoder plug-in that ships with agg.
    public static var decoders: DecoderRegistry {
        DecoderRegistry([TaipeiZooRecordDecoder(), TaipeiMetroRecordDecoder(), FlickrRecordDecoder(), PokemonRecordDecoder()])
    }

    /// The registry of the built-in file, the user's `sources.d`, `AGG_SOURCES` and
    /// `extraFiles`, in that order.
    public static func registry(environment: [String: String], extraFiles: [String] = []) -> SourceRegistry {
        let files = DefinitionSearchPath.files(builtin: sourcesFile, environment: environment, commandLine: extraFiles)
        return SourceRegistry(files: files, loader: DefinitionLoader(knownDecoders: decoders.names))
    }
}
