/// The set of remote records one sync produces: a source, and for parameterised sources the
/// parameter values (each Flickr place is a collection of its own).
public struct CollectionID: Sendable, Hashable, CustomStringConvertible {
    /// The source's name.
    public var source: String
    /// The parameter values, in canonical form (`lat=25.03&lon=121.56`, sorted by name), or
    /// the empty string for sources without parameters.
    public var parameters: String

    /// The collection of `source` for `parameters`.
    public init(source: String, parameters: [String: String] = [:]) {
        self.source = source
        self.parameters = parameters.sorted { $0.key < $1.key }
            .map { URLEncoding.queryComponent($0.key) + "=" + URLEncoding.queryComponent($0.value) }
            .joined(separator: "&")
    }

    /// `zoo` or `flickr?lat=25.03&lon=121.56`.
    public var description: String { parameters.isEmpty ? source : "\(source)?\(parameters)" }

    /// The parameter values encoded in `parameters`.
    public var parameterValues: [String: String] {
        var values: [String: String] = [:]
        for pair in parameters.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            values[URLEncoding.decode(String(parts[0]))] = URLEncoding.decode(String(parts[1]))
        }
        return values
    }
}
