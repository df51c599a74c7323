import Foundation

/// Which roots stand in for the OS's preinstalled ones.
public enum TrustStoreSource: Sendable, Hashable {
    /// Apple's published stores, one per OS release (the default).
    case apple(AppleTrustData)
    /// This machine's store (OpenSSL's default paths), labelled as such.
    case host
    /// A PEM bundle that stands in for Apple's system roots, with system-root semantics.
    case pemBundle(String)
    /// No system roots: only `--ca-file` anchors (tests).
    case none

    public static func == (a: TrustStoreSource, b: TrustStoreSource) -> Bool {
        switch (a, b) {
        case (.apple(let x), .apple(let y)): x.identity == y.identity
        case (.host, .host), (.none, .none): true
        case (.pemBundle(let x), .pemBundle(let y)): x == y
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .apple(let data): hasher.combine("apple" + data.identity)
        case .host: hasher.combine("host")
        case .pemBundle(let path): hasher.combine("pem:" + path)
        case .none: hasher.combine("none")
        }
    }
}

extension TrustStoreSource {
    /// `apple security_certificates-55349.0.11`, `host`, `pem PATH`, `none`: what an audit shard records.
    public var recorded: String {
        switch self {
        case .apple(let data): "apple \(data.snapshots.last?.tag ?? "?")"
        case .host: "host"
        case .pemBundle(let path): "pem \(path)"
        case .none: "none"
        }
    }
}

extension AppleTrustData {
    /// Tells bundles apart cheaply: the snapshot tags and the log list's version.
    public var identity: String {
        snapshots.map { "\($0.tag)/\($0.roots.count)" }.joined(separator: ",") + "|\(roots.count)|"
            + (logList.map { "\($0.source)/\($0.logs.count)" } ?? "") + "|\(restrictions.groups.count)"
            + "|\(announcedDistrust.count)"
    }
}

/// The chain judged against each store of the trust source: Apple's per OS release, or one store (host, PEM bundle).
public struct TrustEvaluation: Codable, Sendable, Equatable {
    /// `apple`, `host`, `pem`, `none`.
    public var source: String
    /// `Apple iOS 14.0–26.0 (security_certificates, 12 stores)`, `host (this machine's OpenSSL store)`, a path.
    public var label: String
    /// One outcome per store, oldest release first (one for host, PEM and none).
    public var stores: [StoreOutcome]
    /// Certificates of the stores' paths that are neither in the chain as sent nor in the newest store's path.
    public var certificates: [CertificateFacts]
    /// Issuers missing from the served chain and what fetching them from their AIA caIssuers URL gave, as trustd
    /// does (``IssuerFetch``); nil when the chain needed none (and in reports from before it).
    public var issuerFetches: [IssuerFetch]?

    public init(
        source: String, label: String, stores: [StoreOutcome], certificates: [CertificateFacts] = [],
        issuerFetches: [IssuerFetch]? = nil
    ) {
        self.source = source
        self.label = label
        self.stores = stores
        self.certificates = certificates
        self.issuerFetches = issuerFetches
    }

    /// The store outcome for an iOS-family release (`[major, minor]`): the newest store shipped at or before it, or
    /// the oldest; the only one for a single-store source.
    public func outcome(forIOS version: [Int]) -> StoreOutcome? {
        guard stores.count > 1 else { return stores.first }
        return Release.newest(of: stores, atOrBefore: version, release: \.iOSNumbers)
    }

    /// Whether some stores trust the chain and others do not.
    public var storesDisagree: Bool { Set(stores.map(\.trusted)).count > 1 }
}

extension TrustEvaluation {
    /// The releases whose stores trust the chain and those whose stores do not, as ranges (`iOS 15.0–16.5`,
    /// `iOS 17.0+`).
    public var releaseRanges: (trusted: String, untrusted: String) {
        var runs: [(trusted: Bool, first: String, last: String)] = []
        for store in stores {
            let release = store.iOS ?? "?"
            if let last = runs.last, last.trusted == store.trusted {
                runs[runs.count - 1].last = release
            } else {
                runs.append((store.trusted, release, release))
            }
        }
        let newest = stores.last?.iOS
        func text(_ trusted: Bool) -> String {
            runs.filter { $0.trusted == trusted }.map { run -> String in
                if run.last == newest { return "iOS \(run.first)+" }
                return run.first == run.last ? "iOS \(run.first)" : "iOS \(run.first)–\(run.last)"
            }.joined(separator: ", ")
        }
        return (text(true), text(false))
    }
}

/// The chain against one store.
public struct StoreOutcome: Codable, Sendable, Equatable {
    /// `Apple iOS 17.4 (trust store 2024013100, security_certificates-55297.100.4)`, or the single store's label.
    public var store: String
    /// The first iOS release that ships this store; nil for a single-store source.
    public var iOS: String?
    /// Whether devices on this release also receive store updates over the air.
    public var overTheAir: Bool
    public var trusted: Bool
    public var verifyError: String?
    public var verifyErrorCode: Int?
    public var anchor: AnchorKind
    /// The verified path as SHA-256s (leaf first); the certificates are in the report's chain or verified chain.
    public var path: [String]
    /// When the chain does not verify: the root it would end at in some other store (Apple's other releases, the
    /// roots Apple removed, this machine's store), and what that says.
    public var untrustedRoot: UntrustedRoot?
    /// Restrictions of Apple's revocation database that the path breaks.
    public var distrust: [DistrustFinding]
    /// The path ends at one of Apple's own anchors (no CT required); nil when not known.
    public var appleAnchor: Bool?

    public init(
        store: String, iOS: String?, overTheAir: Bool = false, trusted: Bool, verifyError: String? = nil,
        verifyErrorCode: Int? = nil, anchor: AnchorKind, path: [String], untrustedRoot: UntrustedRoot? = nil,
        distrust: [DistrustFinding] = [], appleAnchor: Bool? = nil
    ) {
        self.store = store
        self.iOS = iOS
        self.overTheAir = overTheAir
        self.trusted = trusted
        self.verifyError = verifyError
        self.verifyErrorCode = verifyErrorCode
        self.anchor = anchor
        self.path = path
        self.untrustedRoot = untrustedRoot
        self.distrust = distrust
        self.appleAnchor = appleAnchor
    }

    public var iOSNumbers: [Int] { Release.numbers(iOS) }
}

/// The root an untrusted chain ends at elsewhere.
public struct UntrustedRoot: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable {
        /// In Apple's `certificates/removed/`.
        case removedByApple = "removed-by-apple"
        /// In a later Apple store only.
        case addedLater = "added-later"
        /// In an earlier Apple store only (removed since).
        case droppedEarlier = "dropped-earlier"
        /// Trusted by this machine's store, in no Apple store.
        case hostOnly = "host-only"
    }

    public var status: Status
    public var name: String
    public var sha256: String
    /// For `addedLater`: the first iOS release whose store has it; for `droppedEarlier`: the last that had it.
    public var iOS: String?

    public init(status: Status, name: String, sha256: String, iOS: String? = nil) {
        self.status = status
        self.name = name
        self.sha256 = sha256
        self.iOS = iOS
    }
}

/// The SCTs the probe saw, each checked against the log list.
public struct CertificateTransparencyReport: Codable, Sendable, Equatable {
    /// The log list used (`Apple's log list (version 375), security_certificates-55349.0.11`, or a path).
    public var logList: String
    public var scts: [SCTFacts]
    /// Whether the probe asked for SCTs in the TLS extension and a stapled OCSP response.
    public var requestedDelivered: Bool
    /// When the log list was published (``CTLogList/date``); nil in reports saved before the field.
    public var logListDate: Date?
    /// SCTs collected that OpenSSL could not read, with its reason; nil (absent in JSON) when every one was read.
    public var unparsedSCTs: [UnparsedSCT]?

    public init(logList: String, scts: [SCTFacts], requestedDelivered: Bool, logListDate: Date? = nil) {
        self.logList = logList
        self.scts = scts
        self.requestedDelivered = requestedDelivered
        self.logListDate = logListDate
    }
}

/// An SCT that OpenSSL could not read: reported, not dropped, so that the SCTs counted are known to be all there were.
public struct UnparsedSCT: Codable, Sendable, Equatable {
    /// Where it was delivered.
    public var source: SCTFacts.Source
    /// OpenSSL's reason.
    public var reason: String
    /// The bytes as collected (TLS encoding, RFC 6962 §3.2).
    public var serialized: Data

    /// - Parameters:
    ///   - source: Where it was delivered.
    ///   - reason: OpenSSL's reason.
    ///   - serialized: The bytes as collected.
    public init(source: SCTFacts.Source, reason: String, serialized: Data) {
        self.source = source
        self.reason = reason
        self.serialized = serialized
    }
}

/// One Signed Certificate Timestamp.
public struct SCTFacts: Codable, Sendable, Equatable {
    public enum Source: String, Codable, Sendable {
        /// In the certificate (precertificate SCT list).
        case embedded
        /// In the TLS `signed_certificate_timestamp` extension.
        case tlsExtension = "tls-extension"
        /// In a stapled OCSP response.
        case ocsp
    }

    public enum Signature: String, Codable, Sendable {
        case valid, invalid
        /// The log is not in the list, or the SCT could not be checked (no issuer, unknown version).
        case unverified
    }

    public var source: Source
    /// Base64 of the log ID.
    public var logID: String
    public var timestamp: Date
    public var signature: Signature
    /// The log as the list describes it; nil when the list does not have it.
    public var log: CTLog?
    /// The SCT as the server delivered it (TLS extension or stapled OCSP; base64 in JSON), so that a saved profile
    /// is checked again from the bytes, not from this record's verdict. Nil for an embedded SCT (it is read again
    /// from the certificate) and in profiles saved before the field.
    public var serialized: Data?

    public init(
        source: Source, logID: String, timestamp: Date, signature: Signature, log: CTLog? = nil,
        serialized: Data? = nil
    ) {
        self.source = source
        self.logID = logID
        self.timestamp = timestamp
        self.signature = signature
        self.log = log
        self.serialized = serialized
    }
}
