import Foundation

/// What the scan knows of the chain's revocation, as trustd would see it: the OCSP response the server stapled
/// (verified as trustd verifies it), the leaf's OCSP responders, and the certificates a device would check online.
///
/// trustd (`trust/trustd/SecRevocationServer.c`, `SecPathBuilderCheckRevocation`) reads stapled responses for every
/// certificate of the path that has an issuer; it asks responders online only for EV leaves, for certificates whose
/// issuer Apple's Valid database leaves undecided, or when the app asks for revocation checking. docs/revocation.md.
public struct RevocationReport: Codable, Sendable, Equatable {
    /// The stapled response; nil when the server stapled none (or the chain came from no handshake).
    public var stapled: StapledOCSPFacts?
    /// The leaf's OCSP responder URLs (authorityInfoAccess id-ad-ocsp); empty when it names none, as Let's Encrypt's
    /// leaves have not since 2025.
    public var leafResponders: [String]
    /// The certificates of the path a device would ask an OCSP responder about online, and why; empty when it would
    /// ask about none.
    public var onlineChecks: [OnlineRevocationCheck]

    public init(
        stapled: StapledOCSPFacts? = nil, leafResponders: [String] = [], onlineChecks: [OnlineRevocationCheck] = []
    ) {
        self.stapled = stapled
        self.leafResponders = leafResponders
        self.onlineChecks = onlineChecks
    }
}

/// A stapled OCSP response checked as trustd checks one (`SecOCSPResponse.c`, `SecRevocationServer.c`
/// `SecORVCConsumeOCSPResponse`): a successful basic response, signed by the issuer of the certificate it is about
/// or by a delegated responder that issuer certified for OCSP signing, with a single response whose CertID is that
/// certificate with its issuer in the verified path, inside its validity at the verification time.
public struct StapledOCSPFacts: Codable, Sendable, Equatable {
    /// The CertStatus of the single response about a certificate of the path.
    public enum Status: String, Codable, Sendable {
        case good, revoked, unknown
    }

    /// Why trustd does not use the response (or, for a revoked one, why its standing is weaker).
    public enum Problem: String, Codable, Sendable {
        /// Not a DER OCSPResponse with a basic response trustd can parse.
        case malformed
        /// A responseStatus other than successful (`tryLater`, `internalError`, …): no status at all.
        case unsuccessful
        /// No single response is about a certificate of the path with its issuer (wrong serial or issuer).
        case otherCertificate = "other-certificate"
        /// No signer found, a signature that does not verify, or a signer that is neither the issuer nor a delegated
        /// responder the issuer certified.
        case unverified
        /// thisUpdate (or producedAt) more than 1 h 15 min after the verification time.
        case notYetValid = "not-yet-valid"
        /// nextUpdate (or thisUpdate + 24 h without one) more than 1 h 15 min before the verification time.
        case expired
        /// The chain did not give the certificate an issuer to check the response against.
        case noIssuer = "no-issuer"
    }

    /// Who signed the response.
    public enum Responder: String, Codable, Sendable {
        /// The certificate's issuer itself.
        case issuer
        /// A certificate the issuer issued with the OCSP-signing EKU (RFC 6960 §4.2.2.2).
        case delegated
    }

    /// The response as stapled, DER (base64 in JSON): a saved profile is verified again from these bytes, never from
    /// this record's verdict.
    public var response: Data
    /// The status of the single response about a certificate of the path; nil when none could be read.
    public var status: Status?
    /// The SHA-256 of the certificate the status is about (the leaf, unless the response speaks of another
    /// certificate of the path); nil with no matching single response.
    public var certificateSHA256: String?
    /// That certificate's subject.
    public var certificate: String?
    /// For `revoked`: when.
    public var revokedAt: Date?
    /// For `revoked`: the CRLReason as RFC 5280 names it (`keyCompromise`, `superseded`, …); nil when the response
    /// gives none.
    public var reason: String?
    public var thisUpdate: Date?
    public var nextUpdate: Date?
    public var producedAt: Date?
    /// Who signed it; nil when no acceptable signer was found.
    public var responder: Responder?
    /// The signer's subject (the issuer's, or the delegated responder's).
    public var responderSubject: String?
    /// Why trustd would not use it; nil when it would.
    public var problem: Problem?
    /// One line on the problem, naming the fact (`nextUpdate 2026-11-20T10:00:00Z`, `serial 1234 is not the
    /// leaf's`).
    public var detail: String?
    /// The verification time the response was judged at.
    public var checkedAt: Date

    public init(
        response: Data, status: Status? = nil, certificateSHA256: String? = nil, certificate: String? = nil,
        revokedAt: Date? = nil, reason: String? = nil, thisUpdate: Date? = nil, nextUpdate: Date? = nil,
        producedAt: Date? = nil, responder: Responder? = nil, responderSubject: String? = nil,
        problem: Problem? = nil, detail: String? = nil, checkedAt: Date
    ) {
        self.response = response
        self.status = status
        self.certificateSHA256 = certificateSHA256
        self.certificate = certificate
        self.revokedAt = revokedAt
        self.reason = reason
        self.thisUpdate = thisUpdate
        self.nextUpdate = nextUpdate
        self.producedAt = producedAt
        self.responder = responder
        self.responderSubject = responderSubject
        self.problem = problem
        self.detail = detail
        self.checkedAt = checkedAt
    }

    /// Whether trustd takes the status from this response: signed by an acceptable responder, about a certificate
    /// of the path, and inside its validity. A revoked response outside its validity is not `usable`, yet trustd
    /// keeps it (``revokedOutsideValidity``).
    public var usable: Bool { problem == nil && status != nil && responder != nil }

    /// A verified *revoked* response whose times are outside its validity: trustd keeps it (a revoked response is
    /// not required to be current) and, when it may use the network, asks the certificate's responder for a newer
    /// one, which replaces it only if it is newer (`SecORVCConsumeOCSPResponse`, `SecPathBuilderCheckRevocation`).
    public var revokedOutsideValidity: Bool {
        status == .revoked && responder != nil && (problem == .expired || problem == .notYetValid)
    }
}

/// A certificate of the path that a device would ask its OCSP responder about online.
public struct OnlineRevocationCheck: Codable, Sendable, Equatable {
    /// Why trustd asks online (`SecPathBuilderCheckRevocation`: `allow_fetch`).
    public enum Reason: String, Codable, Sendable {
        /// The leaf carries an EV policy OID of Apple's EV roots list and an EV-shaped profile
        /// (`SecCertificateServer.c`, `SecCertificateVCCouldBeEV`): trustd checks every certificate of the path.
        case extendedValidation = "ev"
        /// Apple's Valid database has the issuer in a group whose list does not settle the certificate's status
        /// (an incomplete list, or the group's check-OCSP flag): `SecRVCProcessValidInfoResults` asks for OCSP, for
        /// this certificate and those above it.
        case validDatabase = "valid"
    }

    /// The certificate's subject.
    public var certificate: String
    public var certificateSHA256: String
    /// Its position in the verified path (0: the leaf).
    public var index: Int
    public var reasons: [Reason]
    /// Its OCSP responder URLs; empty: trustd has no one to ask, and the check ends without an answer.
    public var responders: [String]

    public init(certificate: String, certificateSHA256: String, index: Int, reasons: [Reason], responders: [String]) {
        self.certificate = certificate
        self.certificateSHA256 = certificateSHA256
        self.index = index
        self.reasons = reasons
        self.responders = responders
    }
}
