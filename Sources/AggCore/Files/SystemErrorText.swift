#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors from the file system, as a person reads them.
package enum SystemErrorText {
    /// What went wrong, without the error's type: the system's words for a failed file
    /// operation (`No such file or directory`), else the error's own description.
    package static func describe(_ error: any Error) -> String {
        if let error = error as? CocoaError, let underlying = error.underlying as? POSIXError {
            return describe(errno: underlying.code.rawValue)
        }
        if let error = error as? POSIXError { return describe(errno: error.code.rawValue) }
        return "\(error)"
    }

    /// The system's words for the `errno` value `code`.
    package static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
