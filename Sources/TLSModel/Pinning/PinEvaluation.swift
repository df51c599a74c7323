import Foundation

/// The id of an iOS pinning mechanism `atscheck pins` reproduces (`afnetworking`, `trustkit`, `alamofire`,
/// `nspinneddomains`): `--library`, an endpoint list's `library:`, the reports' `library`. Open, like ``RuleID``:
/// each library declares its own id next to its code (`Sources/Pinning/Libraries/`), and the registry
/// (`PinningLibraries`) lists them.
public struct PinLibrary: RawRepresentable, Codable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    public var description: String { rawValue }
}

/// What a library decides for one connection.
public enum PinVerdict: String, Codable, Sendable {
    /// The library lets the connection through (exit 0).
    case accept
    /// The library cancels the connection (exit 1).
    case reject
}

/// One option of the evaluated configuration, as the library spells it (`allowInvalidCertificates` = `YES`).
public struct PinOption: Codable, Sendable, Equatable {
    /// The library's name for the option.
    public var name: String
    /// Its value as text.
    public var value: String

    /// An option.
    /// - Parameters:
    ///   - name: The library's name for it.
    ///   - value: Its value as text.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// One step of a library's decision procedure, in the library's order.
public struct PinStep: Codable, Sendable, Equatable {
    /// How a step went.
    public enum Status: String, Codable, Sendable {
        /// The step ran and did not stop the evaluation.
        case passed
        /// The step ran and decided a rejection (or, for TrustKit with `enforce` off, a reported failure).
        case failed
        /// The options skip the step.
        case skipped
        /// The step ran but its result is not consulted (AFNetworking 2.x/3.x's ignored system evaluation).
        case ignored
    }

    /// Short name: `self-signed guard`, `default trust`, `pin match`, ….
    public var name: String
    /// How it went.
    public var status: Status
    /// One line: what ran under which policy and why it passed, failed or was skipped.
    public var detail: String

    /// A step.
    /// - Parameters:
    ///   - name: Short name.
    ///   - status: How it went.
    ///   - detail: One line.
    public init(_ name: String, _ status: Status, _ detail: String) {
        self.name = name
        self.status = status
        self.detail = detail
    }
}

/// A certificate of the path the pins were matched against.
public struct PinPathEntry: Codable, Sendable, Equatable {
    /// 0 for the leaf; the anchor is last.
    public var position: Int
    /// `leaf`, `intermediate` or `anchor` (a one-certificate path is a `leaf`).
    public var role: String
    /// Subject, RFC 2253.
    public var subject: String
    /// Issuer, RFC 2253.
    public var issuer: String
    /// Base64 SHA-256 of the SubjectPublicKeyInfo.
    public var spkiSHA256: String
    /// SHA-256 of the DER, lower-case hex.
    public var sha256: String
    /// End of validity.
    public var notAfter: Date
    /// Whether the server sent this certificate (false for a root taken from the anchors).
    public var sentByServer: Bool

    /// A path entry.
    public init(
        position: Int, role: String, subject: String, issuer: String, spkiSHA256: String, sha256: String,
        notAfter: Date, sentByServer: Bool
    ) {
        self.position = position
        self.role = role
        self.subject = subject
        self.issuer = issuer
        self.spkiSHA256 = spkiSHA256
        self.sha256 = sha256
        self.notAfter = notAfter
        self.sentByServer = sentByServer
    }
}

/// A pin that matched a certificate of the path.
public struct PinMatch: Codable, Sendable, Equatable {
    /// What was compared.
    public enum Kind: String, Codable, Sendable {
        /// Whole certificate, DER bytes (AFNetworking Certificate mode, Alamofire pinned certificates).
        case certificate
        /// Public key (AFNetworking PublicKey mode, Alamofire public keys), compared by SPKI equality.
        case publicKey
        /// Base64 SHA-256 of the SPKI (TrustKit, NSPinnedDomains).
        case spkiSHA256
    }

    /// The pin: a Base64 SPKI hash, or the pinned certificate's subject and SHA-256.
    public var pin: String
    /// What was compared.
    public var kind: Kind
    /// Position in the path (0 = leaf).
    public var position: Int
    /// `leaf`, `intermediate` or `anchor`.
    public var role: String
    /// Subject of the matching certificate.
    public var subject: String

    /// A match.
    public init(pin: String, kind: Kind, position: Int, role: String, subject: String) {
        self.pin = pin
        self.kind = kind
        self.position = position
        self.role = role
        self.subject = subject
    }
}

/// One of the trust checks a policy can ask for (docs/pinning-rules.md §0: Apple's SSL policy versus BasicX509).
public enum TrustCheckKind: String, Codable, Sendable, CaseIterable {
    /// A path to an anchor with valid signatures and basic constraints.
    case chain
    /// Validity dates of every certificate of the path, anchor included.
    case dates
    /// The host against the leaf's subjectAltName only.
    case hostname
    /// serverAuth extended key usage on the leaf.
    case serverAuthEKU
    /// RSA ≥ 2048 and EC ≥ P-256 on every certificate of the path.
    case keySizes
    /// No SHA-1 signatures.
    case sha1
    /// Leaf lifetime caps (825 days, 398 for system anchors).
    case lifetimeCaps
    /// Certificate Transparency (system-anchored chains).
    case certificateTransparency
    /// Revocation (Alamofire's `RevocationTrustEvaluator`).
    case revocation
}

/// Whether a trust check applied under the evaluated options.
public struct TrustCheckApplication: Codable, Sendable, Equatable {
    /// Whether the check counted.
    public enum Status: String, Codable, Sendable {
        /// A consulted evaluation included it.
        case applied
        /// No consulted evaluation included it under these options.
        case skipped
        /// The library asks for it but atscheck cannot check it (CT, revocation).
        case unchecked
    }

    /// The check.
    public var check: TrustCheckKind
    /// Whether it counted.
    public var status: Status
    /// One line: why.
    public var detail: String

    /// A check's status.
    public init(_ check: TrustCheckKind, _ status: Status, _ detail: String) {
        self.check = check
        self.status = status
        self.detail = detail
    }
}

/// The decision one library makes for one host and served chain, with its reasons: the value renderers
/// show and `docs/pins.md` documents.
public struct PinEvaluation: Codable, Sendable, Equatable {
    /// The mechanism evaluated.
    public var library: PinLibrary
    /// The host the app connects to (SNI and hostname checks).
    public var host: String
    /// The evaluated configuration, in the library's terms.
    public var options: [PinOption]
    /// Accept (exit 0) or reject (exit 1).
    public var verdict: PinVerdict
    /// The library's own name for the outcome (`FailedNoMatchingPin`, `certificatePinningFailed`, …).
    public var result: String
    /// The decision procedure, in order.
    public var steps: [PinStep]
    /// The path the pins were matched against, leaf first (empty when no pin comparison ran).
    public var path: [PinPathEntry]
    /// Pins that matched, in the order the library compares.
    public var matches: [PinMatch]
    /// Whether a pin matched; nil when no pin comparison ran.
    @ExplicitNull public var pinMatched: Bool?
    /// Why no pin matched or why the comparison did not run; nil when a pin matched.
    @ExplicitNull public var noMatchReason: String?
    /// Which trust checks applied under these options.
    public var trustChecks: [TrustCheckApplication]
    /// Warnings and errors (`pins.*` rules).
    public var findings: [Finding]
    /// Where the emulation may differ from a device (root store, AIA fetching, …).
    public var limitations: [String]

    /// An evaluation.
    public init(
        library: PinLibrary, host: String, options: [PinOption], verdict: PinVerdict, result: String,
        steps: [PinStep], path: [PinPathEntry] = [], matches: [PinMatch] = [], pinMatched: Bool? = nil,
        noMatchReason: String? = nil, trustChecks: [TrustCheckApplication] = [], findings: [Finding] = [],
        limitations: [String] = []
    ) {
        self.library = library
        self.host = host
        self.options = options
        self.verdict = verdict
        self.result = result
        self.steps = steps
        self.path = path
        self.matches = matches
        self.pinMatched = pinMatched
        self.noMatchReason = noMatchReason
        self.trustChecks = trustChecks
        self.findings = findings
        self.limitations = limitations
    }
}

/// A relaxed (debug) configuration evaluated next to the same mode without relaxations (release), with the
/// risks of shipping the relaxed one (docs/pinning-rules.md §2).
public struct PinDebugReleaseComparison: Codable, Sendable, Equatable {
    /// The configuration as given, with its relaxations.
    public var debug: PinEvaluation
    /// The same mode with `allowInvalidCertificates` = NO and `validatesDomainName` = YES.
    public var release: PinEvaluation
    /// The risks of shipping the relaxed configuration.
    public var risks: [Finding]

    /// A comparison.
    public init(debug: PinEvaluation, release: PinEvaluation, risks: [Finding]) {
        self.debug = debug
        self.release = release
        self.risks = risks
    }
}
