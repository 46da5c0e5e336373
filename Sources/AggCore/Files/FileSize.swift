#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension FileManager {
    /// The size in bytes of the file at `path`; nil when it cannot be read.
    ///
    /// The attribute's type differs between Foundation's implementations (`UInt` here, a
    /// bridged `NSNumber` on Darwin), so it is read as any unsigned or signed integer.
    package func fileSize(atPath path: String) -> Int? {
        switch (try? attributesOfItem(atPath: path))?[.size] {
        case let size as UInt: Int(size)
        case let size as UInt64: Int(size)
        case let size as Int: size
        default: nil
        }
    }
}
