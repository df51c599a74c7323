/// What an app's `NSAppTransportSecurity` dictionary means, host pattern by host pattern and OS era by OS
/// era, for each class of client (`atscheck plist --explain`; `docs/apple-rules.md` §4.1–§4.5).
///
/// Produced by `ATSPolicy`'s `PolicyExplainer`; kept here, as values only, so renderers can read it
/// without depending on the policy engine.
public struct PolicyExplanation: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// One entry per host pattern: every `NSExceptionDomains` key (and its subdomains when it includes
    /// them), any other public host, local names and an IP literal.
    public var hosts: [HostPatternPolicy]
    /// Assumptions that apply to the whole explanation.
    public var notes: [String]
    /// The oldest release the eras start at, as written (`15.6`, `macOS 12`); absent when nothing said.
    public var lowestOS: String?
    /// Which key or option said so: `--deployment-target`, `MinimumOSVersion`, `IPHONEOS_DEPLOYMENT_TARGET`,
    /// `LSMinimumSystemVersion` (a macOS app's; never an iOS app's Mac Catalyst minimum), `MACOSX_DEPLOYMENT_TARGET`.
    public var lowestOSSource: String?
    /// The build configuration of a preprocessed Info.plist this explains (`DEBUG defined`); absent for a file with
    /// one.
    public var configuration: String?

    public init(hosts: [HostPatternPolicy], notes: [String] = []) {
        self.schemaVersion = PolicyExplanation.currentSchemaVersion
        self.hosts = hosts
        self.notes = notes
    }
}

/// The effective policy for one host pattern, per OS era.
public struct HostPatternPolicy: Codable, Sendable, Equatable {
    /// What kind of host the pattern stands for.
    public enum Kind: String, Codable, Sendable, Equatable {
        /// An `NSExceptionDomains` key itself (a name, an IP literal or a CIDR range).
        case exceptionDomain = "exception-domain"
        /// Subdomains of an `NSExceptionDomains` key with `NSIncludesSubdomains = YES`.
        case subdomain
        /// A public DNS name that no entry lists.
        case otherPublicHost = "other-public-host"
        /// An unqualified or `.local` name.
        case localName = "local-name"
        /// An IP literal that no entry lists.
        case ipLiteral = "ip-literal"
        /// An `NSExceptionDomains` key that never matches a host (a wildcard, a scheme, upper case, …): the
        /// linter reports it, and hosts it was meant for get the policy of any other host.
        case neverMatches = "never-matches"
        /// An `NSExceptionDomains` key that refers to a build setting not given (`$(API_HOST)`): which host it
        /// names, and so what any host gets, cannot be judged.
        case unresolved
    }

    /// The pattern as shown to people: `example.com`, `*.example.com`, `any other public host`, `*.local`.
    public var pattern: String
    public var kind: Kind
    /// The concrete host that was evaluated for the pattern.
    public var exampleHost: String
    public var eras: [EraPolicy]
    /// Why the key never matches (the linter's message), for ``Kind/neverMatches``; absent otherwise.
    public var neverMatches: String?
    /// Why the pattern cannot be judged, for ``Kind/unresolved``; absent otherwise.
    public var cannotBeJudged: String?

    public init(pattern: String, kind: Kind, exampleHost: String, eras: [EraPolicy], neverMatches: String? = nil) {
        self.pattern = pattern
        self.kind = kind
        self.exampleHost = exampleHost
        self.eras = eras
        self.neverMatches = neverMatches
    }
}

/// The policy for one host pattern on one OS era, per client.
public struct EraPolicy: Codable, Sendable, Equatable {
    /// The era as shown to people: `9`, `10–16`, `17+`, `17–26.3`, `26.4+`.
    public var era: String
    /// The release whose rules were applied for the era, e.g. `10.0`.
    public var osVersion: String
    public var clients: [ClientPolicy]

    public init(era: String, osVersion: String, clients: [ClientPolicy]) {
        self.era = era
        self.osVersion = osVersion
        self.clients = clients
    }
}

/// What ATS requires of one class of client for one host on one OS era.
public struct ClientPolicy: Codable, Sendable, Equatable {
    /// The class of client code (docs/apple-rules.md §0 input `C`): the one ``ClientKind``.
    public typealias Client = ClientKind

    public var client: Client
    /// Whether ATS applies (false: only system trust, §0 E3).
    public var atsApplies: Bool
    /// Whether `http://` loads are allowed.
    public var httpAllowed: Bool
    /// The lowest TLS version the client offers (with ATS off: the system default, historically TLS 1.0).
    public var minimumTLS: TLSVersion
    /// Whether only forward-secret (ECDHE) suites are offered on TLS 1.2 and earlier.
    public var forwardSecrecyRequired: Bool
    /// Whether the NIAP `FCP_v2.1` TLS profile applies (iOS 26.4+).
    public var niap: Bool
    /// The keys that decided the policy (removing any of them changes it), as key paths under
    /// `NSAppTransportSecurity`; empty when the OS default decided.
    public var decidedBy: [String]
    /// ``decidedBy`` as keys (`["NSAppTransportSecurity", "NSExceptionDomains", "example.com"]`): a dotted path
    /// cannot be split back when a domain key has dots. Absent in explanations made before it existed.
    public var decidedByComponents: [[String]]?
    /// Why, in one line.
    public var reason: String
    /// Where Apple's sources disagree and the other reading gives a different policy.
    public var conflicts: [ConflictingReading]

    public init(
        client: Client, atsApplies: Bool, httpAllowed: Bool, minimumTLS: TLSVersion, forwardSecrecyRequired: Bool,
        niap: Bool, decidedBy: [String], reason: String, conflicts: [ConflictingReading] = []
    ) {
        self.client = client
        self.atsApplies = atsApplies
        self.httpAllowed = httpAllowed
        self.minimumTLS = minimumTLS
        self.forwardSecrecyRequired = forwardSecrecyRequired
        self.niap = niap
        self.decidedBy = decidedBy
        self.reason = reason
        self.conflicts = conflicts
    }
}

/// The other reading of a documented CONFLICT, and the policy it gives.
public struct ConflictingReading: Codable, Sendable, Equatable {
    /// The conflict's id, e.g. `subdomain-depth`, `uiwebview`.
    public var conflict: String
    /// What the sources disagree about.
    public var summary: String
    /// The name of the other reading, e.g. `doc-one-level`.
    public var reading: String
    public var atsApplies: Bool
    public var httpAllowed: Bool
    public var minimumTLS: TLSVersion
    public var forwardSecrecyRequired: Bool
    /// Why, under that reading.
    public var reason: String

    public init(
        conflict: String, summary: String, reading: String, atsApplies: Bool, httpAllowed: Bool,
        minimumTLS: TLSVersion, forwardSecrecyRequired: Bool, reason: String
    ) {
        self.conflict = conflict
        self.summary = summary
        self.reading = reading
        self.atsApplies = atsApplies
        self.httpAllowed = httpAllowed
        self.minimumTLS = minimumTLS
        self.forwardSecrecyRequired = forwardSecrecyRequired
        self.reason = reason
    }
}
