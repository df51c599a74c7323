import Foundation
import TLSModel

/// A ``RuleID/Trust/missingIntermediate`` warning for an endpoint whose path was completed with an issuer fetched
/// from a caIssuers URL (docs/path-building.md, "Missing intermediates"): iOS pays a fetch and passes, other clients
/// fail. One per endpoint, naming the certificates fetched and their URLs.
package enum MissingIntermediateWarnings {
    /// The warnings for the endpoints of a report.
    package static func findings(for endpoints: [EndpointResult]) -> [Finding] {
        endpoints.compactMap { endpoint in
            guard endpoint.profile.status == .completed, let certificate = endpoint.profile.certificate,
                let evaluation = certificate.trust
            else { return nil }
            let path = Set(certificate.verifiedChain.map(\.sha256))
            let used = evaluation.fetchedIssuers.filter { $0.certificates.contains(where: path.contains) }
            guard certificate.trusted == true, !used.isEmpty else { return nil }
            let fetched = used.map { fetch in
                let names = fetch.certificates.compactMap { sha in
                    certificate.verifiedChain.first { $0.sha256 == sha }.map { "'\($0.subject)'" }
                }
                return "\(names.isEmpty ? "the issuer" : names.joined(separator: ", ")) from \(fetch.url)"
            }.joined(separator: ", ")
            return Finding(
                rule: RuleID.Trust.missingIntermediate, severity: .warning,
                message:
                    "\(endpoint.profile.target): the server does not send its intermediate: the chain was completed "
                    + "with \(fetched), as iOS fetches it (a slower first connection, and a failure where that URL "
                    + "cannot be reached); Android, curl and many SDKs reject the chain. Serve the intermediate "
                    + "after the leaf",
                file: endpoint.source?.file, line: endpoint.source?.line)
        }
    }
}
