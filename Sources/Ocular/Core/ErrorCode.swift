import Foundation

/// What an error is, for programs rather than people: a stable name and the kind of failure, from
/// which the studio picks an HTTP status and the command line an exit status (as GRDB's
/// `DatabaseError` carries SQLite's result code beside its message). Messages may be reworded; codes
/// stay.
public struct ErrorCode: Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure, which decides the status an answer or an exit carries.
    public enum Kind: String, Sendable {
        /// The input (a file's bytes, a recipe, an option, a request's body) cannot be used as it is.
        case badInput
        /// What was named is not there: a file, a gallery item, an uploaded picture.
        case notFound
        /// The input is larger than allowed.
        case tooLarge
        /// Something the operation needs is missing or in use here: a camera, OpenCV's cascade files.
        case unavailable
        /// A file or folder cannot be read or written: permissions, a full disk.
        case ioFailure
        /// The operation cannot be done in this state: a read-only gallery.
        case refused
        /// Storage would pass its quota.
        case full
        /// A library call failed in a way no input explains.
        case internalFailure
    }

    /// `domain.case`, e.g. `image.notAnImage`, `faces.noFace`.
    public let name: String
    /// What kind of failure it is, which decides the exit status and HTTP status.
    public let kind: Kind

    /// Creates a code.
    /// - Parameters:
    ///   - name: The stable name, `area.reason`.
    ///   - kind: What kind of failure it is.
    public init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// The code's name.
    public var description: String { name }
}

/// An error that carries an ``ErrorCode``. Ocular's own errors all do; the studio and the command line
/// map them by ``ErrorCode/kind``, and any other error as an internal failure. Its description is
/// also its `localizedDescription`, so Foundation's error reporting shows the same message.
public protocol CodedError: LocalizedError, CustomStringConvertible {
    /// The error's stable code, for programs and HTTP statuses.
    var code: ErrorCode { get }
}

extension CodedError {
    /// The error's description, for `localizedDescription`.
    public var errorDescription: String? { description }
}

extension ErrorCode {
    /// The code of any error: its own, or `internal.unknown` for errors that carry none.
    /// - Parameter error: Any error.
    /// - Returns: Its code.
    public static func of(_ error: any Error) -> ErrorCode {
        (error as? any CodedError)?.code ?? ErrorCode("internal.unknown", .internalFailure)
    }
}
