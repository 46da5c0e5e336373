#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The image formats agg stores, recognised by their magic bytes rather than by file names
/// or declared content types.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, gif, webp

    /// The largest image agg stores: 20 MiB.
    public static let maximumSize = 20 * 1024 * 1024

    /// The format of `data`, or nil when it is not one of the supported images.
    public static func detect(_ data: some DataProtocol) -> ImageFormat? {
        let bytes = Array(data.prefix(12))
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// The usual file extension.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}
