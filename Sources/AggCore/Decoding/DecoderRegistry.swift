/// The decoders an application makes available, by name. The library never registers any by
/// itself: the application (the `agg` executable, or a tool embedding `AggCore`) decides.
public struct DecoderRegistry: Sendable {
    private var decoders: [String: any RecordDecoder] = [:]

    /// A registry of `decoders`.
    public init(_ decoders: [any RecordDecoder] = []) {
        for decoder in decoders { register(decoder) }
    }

    /// Adds or replaces a decoder under its name.
    public mutating func register(_ decoder: any RecordDecoder) {
        decoders[decoder.name] = decoder
    }

    /// Every registered name.
    public var names: Set<String> { Set(decoders.keys) }

    /// The decoder for a definition: its named plug-in, or the generic field mapper.
    public func decoder(for source: SourceDefinition) throws(UnknownDecoderError) -> any RecordDecoder {
        guard let name = source.decoder else { return GenericDecoder() }
        guard let decoder = decoders[name] else { throw UnknownDecoderError(name: name, source: source.name) }
        return decoder
    }
}

/// A definition names a decoder that the application did not register.
public struct UnknownDecoderError: Error, Sendable, CustomStringConvertible {
    /// The decoder name.
    public var name: String
    /// The source that asked for it.
    public var source: String

    public var description: String {
        "source '\(source)' uses decoder '\(name)', which this program does not include"
    }
}
