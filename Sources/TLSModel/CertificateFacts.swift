import Foundation

/// Facts about one X.509 certificate, read through OpenSSL (which parses the weak certificates
/// that must be flagged: RSA-1024, SHA-1 and MD5 signatures).
public struct CertificateFacts: Codable, Sendable, Equatable {
    /// Subject as an RFC 2253 string.
    public var subject: String
    /// Issuer as an RFC 2253 string.
    public var issuer: String
    /// The subject's commonName, if any (reported, never used for hostname matching).
    public var commonName: String?
    /// Serial number, upper-case hex.
    public var serialNumber: String
    public var notBefore: Date
    public var notAfter: Date
    /// `RSA`, `EC`, `Ed25519`, `Ed448`, `DSA`, or OpenSSL's name for another type.
    public var keyType: KeyAlgorithm
    public var keyBits: Int
    /// Named curve for EC keys (`P-256`, `P-384`, `P-521`, or OpenSSL's name), nil otherwise.
    public var curve: String?
    /// OpenSSL's long name: `sha256WithRSAEncryption`, `sha1WithRSAEncryption`, `ecdsa-with-SHA256`.
    public var signatureAlgorithm: String
    /// The digest of the signature algorithm: `SHA256`, `SHA1`, `MD5`, … (nil when it has none, e.g. Ed25519).
    public var signatureHash: SignatureDigest?
    /// SAN dNSName entries, as written.
    public var subjectAltNames: [String]
    /// SAN iPAddress entries, as text.
    public var ipAddresses: [String]
    /// Key usage bits by name (`digitalSignature`, `keyEncipherment`, `keyCertSign`, …); nil when absent.
    public var keyUsage: [String]?
    /// Extended key usage by name (`serverAuth`, `clientAuth`, `anyExtendedKeyUsage`) or dotted OID; nil when absent.
    public var extendedKeyUsage: [ExtendedKeyUsage]?
    /// Basic constraints cA flag; nil when the extension is absent.
    public var isCA: Bool?
    /// Basic constraints pathLenConstraint, when present.
    public var pathLength: Int?
    /// Number of SCTs embedded in the certificate (the CT precertificate SCT list extension).
    public var embeddedSCTs: Int
    /// Whether subject == issuer and the signature verifies with the certificate's own key.
    public var selfSigned: Bool
    /// SHA-256 of the DER, lower-case hex.
    public var sha256: String
    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo (the HPKP / NSPinnedDomains pin).
    public var spkiSHA256: String
    /// The certificate itself, DER.
    public var der: Data

    public init(
        subject: String, issuer: String, commonName: String? = nil, serialNumber: String,
        notBefore: Date, notAfter: Date, keyType: KeyAlgorithm, keyBits: Int, curve: String? = nil,
        signatureAlgorithm: String, signatureHash: SignatureDigest?, subjectAltNames: [String] = [],
        ipAddresses: [String] = [], keyUsage: [String]? = nil, extendedKeyUsage: [ExtendedKeyUsage]? = nil,
        isCA: Bool? = nil, pathLength: Int? = nil, embeddedSCTs: Int = 0, selfSigned: Bool = false,
        sha256: String, spkiSHA256: String, der: Data = Data()
    ) {
        self.subject = subject
        self.issuer = issuer
        self.commonName = commonName
        self.serialNumber = serialNumber
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.keyType = keyType
        self.keyBits = keyBits
        self.curve = curve
        self.signatureAlgorithm = signatureAlgorithm
        self.signatureHash = signatureHash
        self.subjectAltNames = subjectAltNames
        self.ipAddresses = ipAddresses
        self.keyUsage = keyUsage
        self.extendedKeyUsage = extendedKeyUsage
        self.isCA = isCA
        self.pathLength = pathLength
        self.embeddedSCTs = embeddedSCTs
        self.selfSigned = selfSigned
        self.sha256 = sha256
        self.spkiSHA256 = spkiSHA256
        self.der = der
    }

    /// Validity in seconds, notBefore through notAfter.
    public var lifetimeSeconds: TimeInterval { notAfter.timeIntervalSince(notBefore) }

    /// Lifetime in days as Apple counts it (support 102028): inclusive, 86,400 s a day,
    /// any remainder counting as one more day.
    public var lifetimeDays: Int {
        let seconds = lifetimeSeconds + 1  // notAfter is inclusive
        return Int((seconds / 86_400).rounded(.up))
    }

    /// Whether the EKU allows TLS server use (serverAuth or anyExtendedKeyUsage, or no EKU at all).
    public var allowsServerAuth: Bool {
        guard let eku = extendedKeyUsage else { return true }
        return eku.contains(.serverAuth) || eku.contains(.anyExtendedKeyUsage)
    }
}

/// Which kind of trust anchor a verified chain ended at. Apple's rules differ between them.
public enum AnchorKind: String, Codable, Sendable, Equatable {
    /// A root from the system trust store: a preinstalled root in Apple's terms
    /// (the 398-day cap and Certificate Transparency apply).
    case system
    /// A root given with `--ca-file`: a user- or MDM-installed root in Apple's terms.
    case custom
    /// The chain did not verify.
    case none
}

/// The server's certificate chain as sent, and what verification made of it.
public struct CertificateReport: Codable, Sendable, Equatable {
    /// The chain as the server sent it, leaf first (DER kept in each entry).
    public var chain: [CertificateFacts]
    /// Whether the chain verified to a trust anchor (system store plus `--ca-file`); nil if not evaluated.
    @ExplicitNull public var trusted: Bool?
    /// Whether the host matches a SAN (dNSName, or iPAddress for IP literals); the CN is not used.
    @ExplicitNull public var hostnameMatches: Bool?
    /// OpenSSL's verify error text (`self-signed certificate`, …), nil when trusted.
    @ExplicitNull public var verifyError: String?
    /// OpenSSL's `X509_V_ERR_*` code, 0 when trusted.
    public var verifyErrorCode: Int?
    /// The path OpenSSL built, leaf first, anchor last (may include a root the server did not send).
    public var verifiedChain: [CertificateFacts]
    /// Which kind of anchor the verified path ended at.
    public var anchor: AnchorKind
    /// Whether the server stapled an OCSP response; nil if not observed.
    @ExplicitNull public var ocspStapled: Bool?
    /// The time the chain was verified against.
    public var verifiedAt: Date
    /// The chain against each store of the trust source (Apple's per OS release); nil in reports from before it.
    public var trust: TrustEvaluation?
    /// The SCTs seen (embedded, TLS extension, stapled OCSP), checked against the log list; nil when not read.
    public var transparency: CertificateTransparencyReport?
    /// The stapled OCSP response as trustd would judge it, and what a device would check online; nil in reports from
    /// before it (docs/revocation.md).
    public var revocation: RevocationReport?
    /// Certificates the server sent (or a caIssuers URL served) that OpenSSL could not read, with the parser's reason:
    /// `chain` holds only those it read. Nil (absent in JSON) when every certificate was read.
    public var unparsedCertificates: [UnparsedCertificate]?

    public init(
        chain: [CertificateFacts], trusted: Bool?, hostnameMatches: Bool?, verifyError: String?,
        verifyErrorCode: Int? = nil, verifiedChain: [CertificateFacts] = [], anchor: AnchorKind = .none,
        ocspStapled: Bool? = nil, verifiedAt: Date = Date(), trust: TrustEvaluation? = nil,
        transparency: CertificateTransparencyReport? = nil, revocation: RevocationReport? = nil
    ) {
        self.chain = chain
        self.trusted = trusted
        self.hostnameMatches = hostnameMatches
        self.verifyError = verifyError
        self.verifyErrorCode = verifyErrorCode
        self.verifiedChain = verifiedChain
        self.anchor = anchor
        self.ocspStapled = ocspStapled
        self.verifiedAt = verifiedAt
        self.trust = trust
        self.transparency = transparency
        self.revocation = revocation
    }

    public var leaf: CertificateFacts? { chain.first }
}
