import Foundation

/// Apple's published trust data, as `scripts/apple-trust/generate.py` converts it from a local copy of
/// apple-oss-distributions/security_certificates: the root store of each OS release, the roots Apple removed,
/// the TLS-relevant restrictions of Apple's revocation database (valid.apple.com), and Apple's CT log list.
/// The bundled copy is ``AppleTrust/AppleTrustBundle``; tests build their own.
public struct AppleTrustData: Codable, Sendable {
    /// Where the data came from and when it was generated.
    public var provenance: Provenance
    /// The stores, oldest OS release first.
    public var snapshots: [TrustStoreSnapshot]
    /// Every root of every snapshot, once.
    public var roots: [TrustRoot]
    /// Roots Apple lists in `certificates/removed/` (no longer trusted).
    public var removedRoots: [TrustRoot]
    /// The revocation database's restrictions that bear on TLS.
    public var restrictions: ValidRestrictions
    /// Apple's CT log list (not encoded with the rest: the bundle keeps Apple's own file).
    public var logList: CTLogList?
    /// Distrust Apple announced by issuance date (support 121668), curated from Apple's article.
    public var announcedDistrust: [AnnouncedDistrust]

    public init(
        provenance: Provenance, snapshots: [TrustStoreSnapshot], roots: [TrustRoot], removedRoots: [TrustRoot] = [],
        restrictions: ValidRestrictions = ValidRestrictions(), logList: CTLogList? = nil,
        announcedDistrust: [AnnouncedDistrust] = []
    ) {
        self.provenance = provenance
        self.snapshots = snapshots
        self.roots = roots
        self.removedRoots = removedRoots
        self.restrictions = restrictions
        self.logList = logList
        self.announcedDistrust = announcedDistrust
    }

    private enum CodingKeys: String, CodingKey {
        case provenance, snapshots, roots, removedRoots, restrictions, announcedDistrust
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            provenance: try c.decode(Provenance.self, forKey: .provenance),
            snapshots: try c.decode([TrustStoreSnapshot].self, forKey: .snapshots),
            roots: try c.decode([TrustRoot].self, forKey: .roots),
            removedRoots: try c.decodeIfPresent([TrustRoot].self, forKey: .removedRoots) ?? [],
            restrictions: try c.decodeIfPresent(ValidRestrictions.self, forKey: .restrictions) ?? ValidRestrictions(),
            announcedDistrust: try c.decodeIfPresent([AnnouncedDistrust].self, forKey: .announcedDistrust) ?? [])
    }

    public struct Provenance: Codable, Sendable, Equatable {
        /// `apple-oss-distributions/security_certificates`.
        public var repository: String
        /// The generator's run date, `YYYY-MM-DD`.
        public var generated: String
        /// How the tags were mapped to OS releases, with the sources used.
        public var mapping: String
        /// Notes on what was left out and why.
        public var notes: [String]

        public init(repository: String, generated: String, mapping: String, notes: [String] = []) {
            self.repository = repository
            self.generated = generated
            self.mapping = mapping
            self.notes = notes
        }
    }

    /// The snapshot that an iOS-family release `version` (`[major, minor]`) runs with: the newest one shipped at
    /// or before it, or the oldest when `version` predates every snapshot.
    public func snapshot(forIOS version: [Int]) -> TrustStoreSnapshot? {
        Release.newest(of: snapshots, atOrBefore: version, release: \.iOSNumbers)
    }

    /// The root with this SHA-256 (upper-case hex), in the store or among the removed roots.
    public func root(sha256: String) -> TrustRoot? {
        let key = sha256.uppercased()
        return roots.first { $0.sha256 == key } ?? removedRoots.first { $0.sha256 == key }
    }
}

/// Releases written `17.4`, ordered by their numbers.
enum Release {
    /// `[17, 4]` for `17.4`; `[]` for nil.
    static func numbers(_ release: String?) -> [Int] { (release ?? "").split(separator: ".").compactMap { Int($0) } }

    /// The last of `items` (oldest first) whose release is at or before `version`, or the first when none is.
    static func newest<T>(of items: [T], atOrBefore version: [Int], release: (T) -> [Int]) -> T? {
        items.last { !version.lexicographicallyPrecedes(release($0)) } ?? items.first
    }
}

/// One Apple trust store as shipped with an OS release.
public struct TrustStoreSnapshot: Codable, Sendable, Equatable, Hashable {
    /// The trust store version, `YYYYMMDDNN` (Settings › General › About › Certificate Trust Settings).
    public var version: String
    /// The security_certificates tag it was read from.
    public var tag: String
    /// The tag's commit date, `YYYY-MM-DD`.
    public var date: String
    /// The first iOS-family release that ships it (`17.4`).
    public var iOS: String
    /// The macOS release that ships it (`14.4`).
    public var macOS: String
    /// How this tag was tied to these releases (`confirmed` by a published trust-store/OS pairing, or `inferred`
    /// from the tag's release series), with the source.
    public var mapping: String
    /// Whether devices on this release also receive trust-store updates over the air (iOS 18 and later).
    public var overTheAir: Bool
    /// SHA-256 of each root's DER, upper-case hex.
    public var roots: [String]

    public init(
        version: String, tag: String, date: String, iOS: String, macOS: String, mapping: String,
        overTheAir: Bool, roots: [String]
    ) {
        self.version = version
        self.tag = tag
        self.date = date
        self.iOS = iOS
        self.macOS = macOS
        self.mapping = mapping
        self.overTheAir = overTheAir
        self.roots = roots
    }

    /// `[17, 4]`.
    public var iOSNumbers: [Int] { Release.numbers(iOS) }

    /// `Apple iOS 17.4 (trust store 2024013100, security_certificates-55297.100.4)`.
    public var label: String { "Apple iOS \(iOS) (trust store \(version), \(tag))" }
}

/// A root certificate.
public struct TrustRoot: Codable, Sendable, Equatable, Hashable {
    /// SHA-256 of the DER, upper-case hex (Apple's file name in `certificates/roots/`).
    public var sha256: String
    /// A readable name (Apple's `hash_to_human_name.json`, else the subject's CN or O).
    public var name: String
    /// The certificate, DER.
    public var der: Data
    /// One of Apple's own anchors (Apple Root CA, G2, G3): trustd requires no CT for chains that end at one.
    public var appleAnchor: Bool?

    public init(sha256: String, name: String, der: Data, appleAnchor: Bool? = nil) {
        self.sha256 = sha256.uppercased()
        self.name = name
        self.der = der
        self.appleAnchor = appleAnchor
    }
}
