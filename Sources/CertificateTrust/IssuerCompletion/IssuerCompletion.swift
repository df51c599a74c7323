internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// The steps of completing a served chain from AIA caIssuers URLs, as trustd's CA issuer source does
/// (docs/path-building.md, "Missing intermediates"). The drivers — the prober's (TLSProbe: async, one fetch per URL
/// per run through its `IssuerFetcher`) and ``ChainReports``' (a chain file, a saved profile) — repeat
/// ``next(chain:extra:store:now:)``, fetch, and ``parents(of:from:)`` until the path reaches an anchor, no URL is
/// left, or ``maximumFetches`` issuers were added.
///
/// What is fetched follows trustd (Security-61901, `trust/trustd/`):
/// - only when the path built from the served certificates and the anchors stops short of an anchor: the CA issuer
///   source is the last parent source tried (`SecPathBuilderInit` in `SecTrustServer.c` appends
///   `kSecCAIssuerSource` after the anchor and served-certificate sources);
/// - the URLs of the certificate the path stops at, in order, `http://` only (`TrustURLSessionDelegate.m`,
///   `fetchNext:`: "skipping unsupported scheme"), at most 3 requests per certificate (`MAX_TASKS`), none when it
///   lists 10 or more (`SecCAIssuerRequest.m`, `CA_ISSUERS_REQUEST_THRESHOLD`);
/// - not for a certificate that has expired at the verification time (`SecCertificateSource.c`,
///   `SecCAIssuerCertificateSourceCopyParents`: "Some expired certs have dead domains");
/// - of what a URL serves, only certificates whose subject is the certificate's issuer name
///   (`SecCAIssuerConvertToParents`).
package enum IssuerCompletion {
    /// trustd: at most this many requests for one certificate's URLs (`MAX_TASKS`).
    static let maximumRequestsPerCertificate = 3
    /// trustd: no request at all for a certificate with this many caIssuers URLs or more.
    static let tooManyURLs = 10
    /// atscheck's bound on issuers added to one chain (trustd's paths are at most 15 long, `MAX_CHAIN_LENGTH`;
    /// ``ChainVerifier/maximumDepth`` is 8).
    package static let maximumFetches = 6
    /// trustd's own timeout for one request, in seconds (`TrustURLSessionGetResourceTimeout`, 3.0 s).
    package static let timeout = 3.0
    /// atscheck's cap on one answer: trustd's source sets none; an issuer (or a few, as PKCS#7) is a few kilobytes.
    package static let maximumBytes = 256 * 1024

    /// What to do next for a chain.
    package enum Next: Sendable {
        /// The path reaches an anchor, or fails for a reason no fetch changes.
        case done
        /// The issuer of `subject` is missing and trustd would not fetch it: the records say why.
        case stop([IssuerFetch])
        /// Fetch `urls` in turn (until one serves the issuer) for the certificate `certificate` (DER).
        case fetch(certificate: [UInt8], subject: String, urls: [String])
    }

    /// OpenSSL's errors for "the issuer is not here": `X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT` (2),
    /// `X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY` (20), `X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE` (21).
    static let missingIssuerErrors: Set<Int> = [
        Int(X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT), Int(X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY),
        Int(X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE),
    ]

    /// Verifies the chain (with the issuers fetched so far) against `store` and says what is missing.
    /// - Parameters:
    ///   - chain: The served chain, leaf first.
    ///   - extra: The issuers fetched so far.
    ///   - store: The store the fetch is decided by: the newest release's (the device in a user's hand).
    ///   - now: The verification time.
    package static func next(chain: [X509Certificate], extra: [X509Certificate], store: TrustStore, now: Date) -> Next {
        let result = ChainVerifier(trust: store, now: now).verify(chain + extra)
        guard !result.trusted, missingIssuerErrors.contains(result.errorCode),
            let top = result.path.last ?? chain.first
        else { return .done }
        let subject = top.facts().subject
        let urls = top.caIssuerURLs
        guard !urls.isEmpty else { return .done }
        func skipped(_ url: String, _ reason: String) -> IssuerFetch {
            IssuerFetch(certificate: subject, url: url, status: .skipped, reason: reason)
        }
        if urls.count >= tooManyURLs {
            return .stop([
                skipped(
                    urls[0],
                    "the certificate lists \(urls.count) caIssuers URLs; trustd fetches none from 10 on "
                        + "(SecCAIssuerRequest.m)")
            ])
        }
        if !top.isValid(at: now) {
            return .stop([
                skipped(
                    urls[0], "the certificate has expired; trustd does not fetch the issuer of an expired certificate")
            ])
        }
        let http = urls.filter { $0.lowercased().hasPrefix("http://") }
        guard !http.isEmpty else {
            return .stop(
                urls.map {
                    skipped(
                        $0, "trustd fetches caIssuers URLs over http:// only (TrustURLSessionDelegate.m, fetchNext:)")
                })
        }
        return .fetch(certificate: top.der, subject: subject, urls: Array(http.prefix(maximumRequestsPerCertificate)))
    }

    /// The certificates in `body` that issued `certificate` (by name), as DER; or why there are none.
    package static func parents(of certificate: [UInt8], from body: [UInt8]) -> Result<[[UInt8]], IssuerFailure> {
        guard let child = try? X509Certificate(der: certificate) else { return .failure(IssuerFailure("unreadable")) }
        guard let found = CAIssuerData.certificates(body) else {
            return .failure(
                IssuerFailure(
                    "the answer (\(body.count) bytes) is neither a DER certificate, a PKCS#7 certs-only message nor PEM"
                ))
        }
        let parents = found.filter { child.isIssuerName(of: $0) }
        guard !parents.isEmpty else {
            let names = found.prefix(2).map { "'\($0.facts().subject)'" }.joined(separator: ", ")
            return .failure(IssuerFailure("it serves \(names), not the certificate's issuer"))
        }
        return .success(parents.map(\.der))
    }

    /// Why a URL gave no parent: one line.
    package struct IssuerFailure: Error, Sendable {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
    }

    /// The request for a caIssuers URL: trustd's timeout, no redirect (trustd refuses them:
    /// `willPerformHTTPRedirection` in `TrustURLSessionDelegate.m`), atscheck's size cap.
    package static func request(_ url: String) -> HTTPFetchRequest {
        HTTPFetchRequest(
            url: url, maximumBytes: maximumBytes, timeout: timeout, maximumRedirects: 0,
            accept: "application/pkix-cert, application/pkcs7-mime, */*")
    }
}
