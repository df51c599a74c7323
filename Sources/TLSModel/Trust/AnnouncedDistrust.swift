import Foundation

/// A distrust Apple announced by issuance date: certificates chaining to these roots and issued after ``effective``
/// are rejected, while the roots stay in Apple's store for what was issued before (support 121668, "Changes to
/// certificate authorities and certificates"). Curated by hand from Apple's article into
/// `scripts/apple-trust/announced-distrust.json`, which the generator copies into the bundled data.
public struct AnnouncedDistrust: Codable, Sendable, Equatable {
    /// The CA as Apple names it (`Entrust`, `AC Camerfirma, S.A.`).
    public var ca: String
    /// Apple's announcement: `Apple support 121668 (Changes to certificate authorities and certificates)`.
    public var source: String
    /// Its address.
    public var url: String
    /// Certificates issued (notBefore) after the end of this day, UTC, are rejected.
    public var effective: Date
    /// The uses Apple names (`TLS`, `S/MIME`, `time stamping`, `client authentication`).
    public var uses: [String]
    /// The first iOS-family release that enforces it, where known; nil: "the latest Apple systems" (every release
    /// judged).
    public var enforcedFromIOS: String?
    /// How ``enforcedFromIOS`` is known.
    public var enforcedFromSource: String?
    /// SHA-256 (upper-case hex) of each root.
    public var roots: [String]

    public init(
        ca: String, source: String, url: String, effective: Date, uses: [String], enforcedFromIOS: String? = nil,
        enforcedFromSource: String? = nil, roots: [String]
    ) {
        self.ca = ca
        self.source = source
        self.url = url
        self.effective = effective
        self.uses = uses
        self.enforcedFromIOS = enforcedFromIOS
        self.enforcedFromSource = enforcedFromSource
        self.roots = roots.map { $0.uppercased() }
    }

    /// Whether it covers TLS server certificates.
    public var coversTLS: Bool { uses.contains { $0.caseInsensitiveCompare("TLS") == .orderedSame } }

    /// The first second after the effective day: a leaf whose notBefore is at or after it is affected ("issued after
    /// 2024-11-15"; one issued on that day keeps working).
    public var cutOff: Date { effective.addingTimeInterval(86_400) }

    /// `[18, 2]`, or nil.
    public var enforcedFromNumbers: [Int]? { enforcedFromIOS.map { Release.numbers($0) } }
}

extension AppleTrustData {
    /// The announced distrust that covers a verified path (leaf first, root last) for TLS: one finding when the root
    /// is listed and the leaf was issued after the effective date.
    public func announcedDistrustFindings(path: [CertificateFacts]) -> [DistrustFinding] {
        guard let leaf = path.first, let root = path.last, path.count > 1 else { return [] }
        let sha = root.sha256.uppercased()
        return announcedDistrust.filter { $0.coversTLS && $0.roots.contains(sha) && leaf.notBefore >= $0.cutOff }.map {
            entry in
            DistrustFinding(
                kind: .announcedDistrust, certificate: leaf.subject, certificateSHA256: leaf.sha256,
                issuer: root.subject,
                detail:
                    "issued \(CalendarDay.string(from: leaf.notBefore)), after \(CalendarDay.string(from: entry.effective)), "
                    + "the date from which Apple rejects certificates chaining to '\(root.subject)' (\(entry.ca)) for "
                    + "TLS; certificates issued on or before it work until they expire",
                overridable: false, source: "\(entry.source), \(entry.url)", enforcedFromIOS: entry.enforcedFromIOS,
                enforcedFromSource: entry.enforcedFromSource)
        }
    }

    /// The announced distrust entry that lists `sha256` as a root, if any.
    public func announcedDistrust(root sha256: String) -> AnnouncedDistrust? {
        let key = sha256.uppercased()
        return announcedDistrust.first { $0.roots.contains(key) }
    }
}
