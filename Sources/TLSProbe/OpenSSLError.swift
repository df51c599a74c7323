internal import COpenSSL
internal import OpenSSLSupport

/// An error from OpenSSL, with the drained error queue.
public struct OpenSSLError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What atscheck was doing.
    public var operation: String
    /// OpenSSL's error strings, oldest first.
    public var stack: [String]
    public var fileID: String
    public var line: Int

    init(_ operation: String, fileID: String = #fileID, line: Int = #line) {
        self.operation = operation
        self.stack = OpenSSLErrorQueue.drain().map(\.text)
        self.fileID = fileID
        self.line = line
    }

    public var description: String {
        stack.isEmpty ? operation : "\(operation): \(stack.joined(separator: "; "))"
    }

    public static func == (lhs: OpenSSLError, rhs: OpenSSLError) -> Bool { lhs.operation == rhs.operation }
}

/// The linked OpenSSL's version text, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
public var linkedOpenSSLVersion: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }

/// The version text of the OpenSSL headers atscheck was compiled against.
public var builtOpenSSLVersion: String { String(cString: atsc_OPENSSL_VERSION_TEXT()) }
