import Foundation
import TLSModel

/// A ``RuleID/Trust/keyUsage`` warning for a leaf whose key usage does not fit a TLS server: keyCertSign on a
/// certificate that is not a CA (RFC 5280 §4.2.1.3), or neither digitalSignature nor keyEncipherment. Apple's SSL
/// policy does not check the leaf's key usage (`SecPolicyCreateSSL` passes `kSecKeyUsageUnspecified`), so this is
/// never an ATS failure; other clients and TLS libraries refuse such a certificate.
package enum KeyUsageWarnings {
    /// The warnings for the endpoints of a report, one per endpoint at most.
    package static func findings(for endpoints: [EndpointResult]) -> [Finding] {
        endpoints.compactMap { endpoint in
            guard endpoint.profile.status == .completed, let leaf = endpoint.profile.certificate?.leaf,
                let usage = leaf.keyUsage, let problem = problem(usage, isCA: leaf.isCA == true)
            else { return nil }
            return Finding(
                rule: RuleID.Trust.keyUsage, severity: .warning,
                message:
                    "\(endpoint.profile.target): the certificate's key usage (\(usage.joined(separator: ", "))) "
                    + "\(problem); iOS does not check it, other TLS clients refuse it",
                file: endpoint.source?.file, line: endpoint.source?.line)
        }
    }

    /// What is wrong with a leaf's key usage, or nil.
    static func problem(_ usage: [String], isCA: Bool) -> String? {
        if usage.contains("keyCertSign") && !isCA { return "includes keyCertSign on a certificate that is not a CA" }
        if !usage.contains("digitalSignature") && !usage.contains("keyEncipherment") {
            return "allows neither digitalSignature nor keyEncipherment"
        }
        return nil
    }
}
