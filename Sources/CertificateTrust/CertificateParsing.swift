import Foundation
internal import OpenSSLSupport
import TLSModel

/// Certificate facts for certificates read from files (pinned certificates), through the same OpenSSL
/// reading as a scan's.
package enum CertificateParsing {
    /// The facts of one DER certificate.
    /// - Parameter der: The certificate, DER.
    /// - Returns: Its facts, DER included.
    /// - Throws: ``ProbeFailure`` (`.local`) with OpenSSL's reason when the bytes are not a DER certificate.
    package static func facts(der: Data) throws -> CertificateFacts {
        OpenSSLRuntime.prepare()
        do { return try X509Certificate(der: [UInt8](der)).facts() } catch let error as OpenSSLError {
            throw ProbeFailure(.local, error.stack.last ?? "not a DER certificate")
        }
    }
}
