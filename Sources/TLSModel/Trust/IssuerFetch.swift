import Foundation

/// What atscheck did about one issuer missing from the served chain, as trustd's CA issuer source does it
/// (`SecCAIssuerRequest.m`, `SecCAIssuerCopyParents`): the URL of the certificate's AIA caIssuers entry, and whether
/// the certificate(s) it serves completed the path.
///
/// Recorded on ``TrustEvaluation/issuerFetches`` when the served chain does not reach an anchor and the certificate
/// the path stops at names an issuer URL (docs/path-building.md, "Missing intermediates").
public struct IssuerFetch: Codable, Sendable, Equatable {
    /// What came of the URL.
    public enum Status: String, Codable, Sendable {
        /// The URL served certificate(s) whose subject is the certificate's issuer (``IssuerFetch/certificates``).
        case fetched
        /// The fetch failed, or what it served holds no certificate that issued the certificate
        /// (``IssuerFetch/reason``).
        case failed
        /// Fetching is off (`--no-fetch`, or a saved profile whose scan did not fetch this URL).
        case disabled
        /// trustd would not fetch it: not an `http://` URL, too many caIssuers entries, or an expired certificate
        /// (``IssuerFetch/reason``). The device fails like the checker.
        case skipped
    }

    /// The subject of the certificate whose issuer is missing.
    public var certificate: String
    /// The caIssuers URL.
    public var url: String
    public var status: Status
    /// Why it failed, is disabled or skipped: one line. Nil when fetched.
    public var reason: String?
    /// SHA-256s (lower-case hex, as ``CertificateFacts/sha256``) of the fetched certificates that issued it; the
    /// certificates are in the report's verified chain or ``TrustEvaluation/certificates``.
    public var certificates: [String]
    /// Whether an earlier endpoint of the same run fetched the URL (one fetch per URL per run).
    public var cached: Bool?

    public init(
        certificate: String, url: String, status: Status, reason: String? = nil, certificates: [String] = [],
        cached: Bool? = nil
    ) {
        self.certificate = certificate
        self.url = url
        self.status = status
        self.reason = reason
        self.certificates = certificates
        self.cached = cached
    }
}

extension TrustEvaluation {
    /// The issuers fetched into the newest store's path.
    public var fetchedIssuers: [IssuerFetch] { (issuerFetches ?? []).filter { $0.status == .fetched } }

    /// The fetch that would have completed the path but could not be made (failed or disabled), when no fetch of the
    /// same certificate succeeded: the chain's verdict then depends on the network, not on the chain.
    public var unfetchedIssuer: IssuerFetch? {
        let all = issuerFetches ?? []
        return all.last { record in
            [.failed, .disabled].contains(record.status)
                && !all.contains { $0.certificate == record.certificate && $0.status == .fetched }
        }
    }
}

extension CertificateReport {
    /// The certificates fetched from caIssuers URLs (``IssuerFetch/Status/fetched``), with their DER: what a path
    /// builder adds to the served chain where trustd may use the network (the SSL policy; not BasicX509).
    public var fetchedIssuerCertificates: [CertificateFacts] {
        let pool = verifiedChain + (trust?.certificates ?? []) + chain
        var seen = Set<String>()
        return (trust?.fetchedIssuers ?? []).flatMap(\.certificates).compactMap { sha in
            guard seen.insert(sha).inserted else { return nil }
            return pool.first { $0.sha256 == sha }
        }
    }
}
