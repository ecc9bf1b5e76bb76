import Foundation

/// A file error in one line for a person: `<path>: No such file or directory`. Foundation's own
/// description of a `CocoaError` is a dump of its domain, code and user info.
public enum FileErrorText {
    public static func describe(_ error: any Error, path: String) -> String {
        if let cocoa = error as? CocoaError {
            if let posix = cocoa.userInfo[NSUnderlyingErrorKey] as? POSIXError { return "\(path): \(reason(posix.code))" }
            switch cocoa.code {
            case .fileNoSuchFile, .fileReadNoSuchFile: return "\(path): No such file or directory"
            case .fileReadNoPermission, .fileWriteNoPermission: return "\(path): Permission denied"
            case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "\(path): not UTF-8 text"
            default: return "\(path): cannot be read or written (\(cocoa.code.rawValue))"
            }
        }
        if let posix = error as? POSIXError { return "\(path): \(reason(posix.code))" }
        return "\(path): \(ServiceError.describe(error))"
    }

    private static func reason(_ code: POSIXErrorCode) -> String {
        String(cString: strerror(code.rawValue))
    }
}
