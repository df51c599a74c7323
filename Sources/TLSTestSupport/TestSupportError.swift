internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// An error from the test-support fixtures: OpenSSL refused a step, or a socket call failed.
///
/// Equal on ``code`` only, so tests can match the kind of failure without the OpenSSL detail.
package struct TestSupportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of step failed.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        let name: String
        /// OpenSSL could not generate a key.
        package static let keyGeneration = Code(name: "keyGeneration")
        /// OpenSSL could not build or sign a certificate.
        package static let certificate = Code(name: "certificate")
        /// OpenSSL rejected a TLS context setting (versions, ciphers, groups, chain).
        package static let tlsConfiguration = Code(name: "tlsConfiguration")
        /// A socket call failed (bind, listen, connect).
        package static let socket = Code(name: "socket")
        /// An address outside loopback was asked for; fixtures only ever use loopback.
        package static let notLoopback = Code(name: "notLoopback")
        /// The TLS handshake did not complete.
        package static let handshake = Code(name: "handshake")
        /// A child process could not be started, or a fixture's file could not be written.
        package static let process = Code(name: "process")
        package var description: String { name }
    }

    /// The kind of failure.
    package let code: Code
    /// The step that failed and OpenSSL's (or the OS's) own reasons.
    package let reason: String
    package let file: String
    package let line: Int

    package init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        self.file = file
        self.line = line
    }

    package static func == (lhs: TestSupportError, rhs: TestSupportError) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }

    package var description: String { "\(code): \(reason) (\(file):\(line))" }

    /// An error for a failed OpenSSL step, with the drained error queue appended.
    static func openSSL(_ code: Code, _ step: String, file: String = #fileID, line: Int = #line) -> TestSupportError {
        let stack = OpenSSLErrorQueue.drain().map(\.line)
        let reason = stack.isEmpty ? step : "\(step): \(stack.joined(separator: "; "))"
        return TestSupportError(code, reason, file: file, line: line)
    }

    /// An error for a failed system call, with `errno`'s text.
    static func posix(_ step: String, errno code: Int32, file: String = #fileID, line: Int = #line) -> TestSupportError
    {
        TestSupportError(.socket, "\(step): \(String(cString: strerror(code)))", file: file, line: line)
    }
}
