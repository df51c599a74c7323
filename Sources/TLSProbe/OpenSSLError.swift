internal import COpenSSL
internal import OpenSSLSupport

/// An error from OpenSSL, with the drained error queue.
package struct OpenSSLError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What atscheck was doing.
    package var operation: String
    /// OpenSSL's error strings, oldest first.
    package var stack: [String]
    package var fileID: String
    package var line: Int

    init(_ operation: String, fileID: String = #fileID, line: Int = #line) {
        self.operation = operation
        self.stack = OpenSSLErrorQueue.drain().map(\.text)
        self.fileID = fileID
        self.line = line
    }

    package var description: String {
        stack.isEmpty ? operation : "\(operation): \(stack.joined(separator: "; "))"
    }

    package static func == (lhs: OpenSSLError, rhs: OpenSSLError) -> Bool { lhs.operation == rhs.operation }
}

/// The linked OpenSSL's version text, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
package var linkedOpenSSLVersion: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }

/// The version text of the OpenSSL headers atscheck was compiled against.
package var builtOpenSSLVersion: String { String(cString: atsc_OPENSSL_VERSION_TEXT()) }
