/// The version of agg.
public enum AggVersion {
    /// The version string, as `agg --version` prints it.
    public static let current = "0.1.0"
    /// The User-Agent agg sends.
    public static var userAgent: String { "agg/\(current) (libcurl)" }
}
