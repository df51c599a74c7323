import Foundation

/// The restrictions of Apple's revocation database (`valid.sqlite3`, served by valid.apple.com) that bear on a TLS
/// server chain, keyed by the SHA-256 of the issuing CA certificate: date cut-offs, use (policy) restrictions,
/// allow-lists of certificates, and the "known intermediates only" rule. Revoked-serial block-lists and Bloom
/// filters are not carried (see the generator's notes).
///
/// trustd applies them per certificate, with the certificate's issuer deciding the group
/// (`SecRevocationServer.c`, `SecRVCProcessValidInfoResults`, `SecPathBuilderCheckKnownIntermediateConstraints`).
public struct ValidRestrictions: Codable, Sendable, Equatable {
    /// `valid_db_snapshot/valid.sqlite3 at security_certificates-55294 (database version 20)`.
    public var source: String
    /// The groups with a TLS-relevant restriction.
    public var groups: [Group]
    /// Issuer certificate SHA-256 (upper-case hex) → index in ``groups``.
    public var issuers: [String: Int]
    /// Every issuer SHA-256 the database knows (the "known intermediates" of a known-only group).
    public var knownIssuers: [String]
    /// Issuer SHA-256s (upper-case hex) whose group does not settle a certificate's status on its own (an incomplete
    /// revocation list, or the group's check-OCSP flag): trustd asks the OCSP responder online about the
    /// certificates they issue (`SecRVCProcessValidInfoResults`). Nil in data generated before the field.
    public var onlineCheckIssuers: [String]?

    public init(
        source: String = "", groups: [Group] = [], issuers: [String: Int] = [:], knownIssuers: [String] = [],
        onlineCheckIssuers: [String]? = nil
    ) {
        self.source = source
        self.groups = groups
        self.issuers = issuers
        self.knownIssuers = knownIssuers
        self.onlineCheckIssuers = onlineCheckIssuers
    }

    public struct Group: Codable, Sendable, Equatable {
        /// The database's group id, for the record.
        public var id: Int
        /// Certificates issued (notBefore) before this are rejected, for the leaf only.
        public var notBefore: Date?
        /// Certificates issued (notBefore) after this are rejected.
        public var notAfter: Date?
        /// The uses allowed, as Valid numbers them (0 any, 1 server authentication, 2 client authentication,
        /// 3 e-mail, 4 code signing, 5 time stamping); nil when unrestricted.
        public var policies: [Int]?
        /// A complete allow-list: only these certificates (SHA-256, upper-case hex) may be issued by the group's CAs.
        public var allowed: [String]?
        /// Every CA certificate issued by the group's CAs must itself be a known issuer.
        public var knownOnly: Bool
        /// Whether Apple marks the failure recoverable (the user may override it).
        public var overridable: Bool

        public init(
            id: Int, notBefore: Date? = nil, notAfter: Date? = nil, policies: [Int]? = nil, allowed: [String]? = nil,
            knownOnly: Bool = false, overridable: Bool = false
        ) {
            self.id = id
            self.notBefore = notBefore
            self.notAfter = notAfter
            self.policies = policies
            self.allowed = allowed
            self.knownOnly = knownOnly
            self.overridable = overridable
        }
    }

    /// What the restrictions say about a verified path (leaf first, anchor last).
    public func findings(path: [CertificateFacts]) -> [DistrustFinding] {
        guard path.count > 1, !groups.isEmpty else { return [] }
        var findings: [DistrustFinding] = []
        for index in 0..<(path.count - 1) {
            let certificate = path[index]
            let issuer = path[index + 1]
            guard let groupIndex = issuers[issuer.sha256.uppercased()], groups.indices.contains(groupIndex) else {
                continue
            }
            let group = groups[groupIndex]
            func finding(_ kind: DistrustFinding.Kind, _ detail: String) {
                findings.append(
                    DistrustFinding(
                        kind: kind, certificate: certificate.subject, certificateSHA256: certificate.sha256,
                        issuer: issuer.subject, detail: detail, overridable: group.overridable, source: source))
            }
            if let policies = group.policies, !policies.contains(0), !policies.contains(1) {
                finding(
                    .useRestricted, "Apple allows certificates from '\(issuer.subject)' only for " + Self.uses(policies)
                )
            }
            if let notAfter = group.notAfter, certificate.notBefore > notAfter {
                finding(
                    .issuedAfterCutOff,
                    "issued \(CalendarDay.string(from: certificate.notBefore)), after Apple's cut-off of "
                        + "\(CalendarDay.string(from: notAfter)) for certificates from '\(issuer.subject)'")
            }
            if let notBefore = group.notBefore, index == 0, certificate.notBefore < notBefore {
                finding(
                    .issuedBeforeCutOff,
                    "issued \(CalendarDay.string(from: certificate.notBefore)), before the "
                        + "\(CalendarDay.string(from: notBefore)) from which Apple accepts certificates from '\(issuer.subject)'"
                )
            }
            if let allowed = group.allowed, !allowed.contains(certificate.sha256.uppercased()) {
                finding(
                    .notAllowListed,
                    "not on Apple's allow-list for certificates issued by '\(issuer.subject)' (\(allowed.count) allowed)"
                )
            }
            let isCA = index > 0 || certificate.isCA == true
            if group.knownOnly, isCA, !knownIssuers.contains(certificate.sha256.uppercased()) {
                finding(
                    .unknownIntermediate,
                    "an intermediate that Apple does not list under '\(issuer.subject)', which accepts known intermediates only"
                )
            }
        }
        return findings
    }

    static func uses(_ policies: [Int]) -> String {
        let names = [
            0: "any use", 1: "server authentication", 2: "client authentication", 3: "e-mail", 4: "code signing",
            5: "time stamping",
        ]
        let listed = policies.map { names[$0] ?? "use \($0)" }
        return listed.isEmpty ? "no use" : listed.joined(separator: ", ")
    }
}

/// A restriction of Apple's revocation database that a certificate of the path breaks.
public struct DistrustFinding: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable {
        /// The issuer may not issue for TLS server authentication.
        case useRestricted = "use-restricted"
        /// Issued after the issuer's cut-off date (TrustCor: 2022-12-01).
        case issuedAfterCutOff = "issued-after-cut-off"
        /// A leaf issued before the date from which the issuer is accepted.
        case issuedBeforeCutOff = "issued-before-cut-off"
        /// Not on the issuer's complete allow-list.
        case notAllowListed = "not-allow-listed"
        /// An intermediate not in the database under an issuer that accepts known intermediates only.
        case unknownIntermediate = "unknown-intermediate"
        /// A leaf issued after the date from which Apple announced it rejects certificates under the path's root
        /// (support 121668; ``AnnouncedDistrust``).
        case announcedDistrust = "announced-distrust"
    }

    public var kind: Kind
    /// The certificate's subject.
    public var certificate: String
    public var certificateSHA256: String
    /// The issuer's subject.
    public var issuer: String
    public var detail: String
    /// Whether Apple lets the user override it.
    public var overridable: Bool
    /// The database or announcement it came from.
    public var source: String
    /// For an announced distrust: the first iOS-family release known to enforce it; nil: every release.
    public var enforcedFromIOS: String?
    /// How ``enforcedFromIOS`` is known.
    public var enforcedFromSource: String?

    public init(
        kind: Kind, certificate: String, certificateSHA256: String, issuer: String, detail: String,
        overridable: Bool, source: String, enforcedFromIOS: String? = nil, enforcedFromSource: String? = nil
    ) {
        self.kind = kind
        self.certificate = certificate
        self.certificateSHA256 = certificateSHA256
        self.issuer = issuer
        self.detail = detail
        self.overridable = overridable
        self.source = source
        self.enforcedFromIOS = enforcedFromIOS
        self.enforcedFromSource = enforcedFromSource
    }
}
