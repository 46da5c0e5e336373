import AggCore
import FlickrDecoder
import PokemonDecoder
import TaipeiMetroDecoder
import TaipeiZooDecoder

/// The standard assembly of agg: the built-in definitions that ship with the package, and the
/// decoder plug-ins. The `agg` executable uses it; a tool embedding `AggCore` may use it or
/// assemble its own.
public enum Builtins {
    /// The built-in `sources.yaml`, compiled into the binary.
    public static var sourcesFile: DefinitionFile {
        DefinitionFile(path: "sources.yaml", origin: .builtin, contents: EmbeddedResources.files["sources.yaml"])
    }

    /// Every decoder plug-in that ships with agg.
    public static var decoders: DecoderRegistry {
        DecoderRegistry([TaipeiZooRecordDecoder(), TaipeiMetroRecordDecoder(), FlickrRecordDecoder(), PokemonRecordDecoder()])
    }

    /// The loader for definitions that may name the built-in decoders.
    public static var definitionLoader: DefinitionLoader {
        DefinitionLoader(knownDecoders: decoders.names)
    }

    /// The registry of the built-in file, the user's `sources.d`, `AGG_SOURCES` and
    /// `extraFiles`, in that order.
    public static func registry(environment: [String: String], extraFiles: [String] = []) -> SourceRegistry {
        let files = DefinitionSearchPath.files(builtin: sourcesFile, environment: environment, commandLine: extraFiles)
        return SourceRegistry(files: files, loader: definitionLoader)
    }
}
