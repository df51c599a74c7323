internal import COpenSSL

/// An error from OpenSSL, with the drained error queue.
///
/// Here, beside ``OpenSSLErrorQueue``, because both the prober's client contexts and certificate trust throw it.
package struct OpenSSLError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What atscheck was doing.
    package var operation: String
    /// OpenSSL's error strings, oldest first.
    package var stack: [String]
    package var fileID: String
    package var line: Int

    /// The error of `operation`, with OpenSSL's error queue drained into ``stack``.
    package init(_ operation: String, fileID: String = #fileID, line: Int = #line) {
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
